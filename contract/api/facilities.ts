import { type } from 'arktype';

// GET /internal/facilities (spec §7 "Visits and audit"): the places a visit can be booked at.
export const facility = type({ facility_id: 'string', alias: 'string', timezone: 'string' });
export type Facility = typeof facility.infer;

export const facilityList = facility.array();
export type FacilityList = typeof facilityList.infer;
