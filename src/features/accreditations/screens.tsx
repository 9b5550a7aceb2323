// The accreditations area (one lazy chunk): UserHome with the QR ready to show, MyAccreditations,
// AccreditationDetail, AccreditFace and AccreditProof (spec §2), by their spec names.
export { AccreditFace, AccreditProof } from './accredit';
export { AccreditationDetail } from './accreditation-detail';
export { MyAccreditations } from './my-accreditations';
export { UserHome } from './user-home';
