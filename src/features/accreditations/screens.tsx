// The accreditations area (one lazy chunk): UserHome with the QR ready to show, MyAccreditations and
// AccreditationDetail (spec §2), by their spec names. AccreditFace and AccreditProof are a chunk of their own
// (./accredit, src/app/routes.ts).
export { AccreditationDetail } from './accreditation-detail';
export { MyAccreditations } from './my-accreditations';
export { UserHome } from './user-home';
