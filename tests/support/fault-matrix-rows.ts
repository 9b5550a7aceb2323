/**
 * The fault matrix's row of every call of src/api (tests/support/api-calls.ts): the journey of
 * tests/e2e/fault-matrix.spec.ts that drives it (`driver:<name>`; a call made on several screens that fail it
 * differently, one journey each: `driver:<name> driver:<other>`), or why none does yet. A call of src/api without a
 * row here fails the matrix's first test, so a new call cannot skip it; a row without a call fails it too.
 */
export const MATRIX_ROWS: Record<string, string> = {
  'GET /public/visits': 'driver:MyVisits',
  'GET /public/users': 'driver:PortalUsers',
  'GET /public/accounts': 'driver:PortalAccounts',
  'GET /public/audit_accesses': 'driver:AuditAccesses',
  'POST /public/visits': 'driver:NewVisit',
  'GET /internal/accounts/{accountId}/profile': 'driver:UserProfile',
  'GET /public/users/{id}': 'driver:PortalUserDetail',
  'GET /public/visits/{id}': 'driver:VisitDetail',
  'POST /public/singles': 'driver:SingleRegistration',
  'POST /public/credential-resets': 'driver:ResetCredentials',
  'GET /internal/facilities': 'driver:NewVisitLocations',
  'GET /public/credentials/{userId}': 'driver:UserHome',
  'POST /public/audit_accesses': 'driver:AuditExport',
  'DELETE /internal/accounts/{accountId}': 'driver:DeleteAccount',
  'POST /public/visits/{id}/cancellation': 'driver:VisitCancel',
  'POST /public/users/activation': 'driver:ActivateUsers',

  // Not driven yet; each says where the call is made, so the next journey knows where to start.
  'DELETE /internal/onboardings/{onboardingId}': 'driver:EnrolmentCancel',
  'DELETE /public/users': 'driver:AdminDeleteUsers',
  'GET /internal/accounts': 'driver:AccountByEmail driver:SingleEmailCheck',
  'GET /internal/accounts/{accountId}/export': 'driver:ProfileExport',
  'GET /internal/onboardings/{onboardingId}': 'driver:DeviceDetectContinue',
  'GET /internal/onboardings/{onboardingId}/status':
    'driver:DeviceDetectProgress driver:DeviceDetectContinueStatus',
  'GET /internal/portrayals/{portrayalId}': 'driver:PortrayalResult',
  'GET /public/credentials': 'driver:SingleAcsIdCheck',
  'GET /public/credentials/{userId}/sids/{sid}': 'driver:AccreditationDetail driver:AccreditationPdf',
  'GET /public/singles/bulk/{jobId}': 'driver:AddUsersFromPhotosProgress',
  'GET /public/users/{id}/{kind}': 'driver:UserEvidence',
  'GET /public/visits/{id}/qr': 'driver:VisitQr',
  'GET /public/visits/arrival': 'driver:ProcessVisit',
  'GET /public/visits/visitors/{userId}': 'driver:VisitorLookup',
  'GET /public/watchlists/uploads/{id}': 'driver:UploadWatchlistResult',
  'GET /public/staff_actions': 'driver:StaffActions',
  'POST /public/staff_actions': 'driver:StaffActionsExport',
  'POST /enforcements': 'driver:CheckInterdictionsWatch',
  'POST /internal/challenges': 'driver:TakeSelfieAliveChallenge',
  'POST /internal/credential-resets/redeem': 'driver:ResetRedeem',
  'POST /internal/enforcements': 'driver:CheckInterdictions',
  'POST /internal/onboardings': 'driver:EnrolmentStart',
  'POST /internal/portrayals': 'driver:RegisterDocuments',
  'POST /internal/rights': 'driver:AccreditFace',
  'POST /public/credentials/{userId}/locations': 'driver:PortalUserLocation',
  'POST /public/singles/bulk': 'driver:AddUsersFromPhotos',
  'POST /public/visits/{id}/confirmation': 'driver:VisitConfirmation',
  'POST /public/watchlists': 'driver:UploadWatchlist',
  'POST /user-code/generate': 'driver:DeviceDetectCode',
  'POST /user-code/redeem': 'driver:DeviceDetectRedeem',
  'POST /watchlists': 'driver:UploadWatchlistWatch',
  'PUT /internal/accounts/{accountId}/locale': 'driver:LanguageMenu',
  'PUT /internal/onboardings/{onboardingId}/legal_terms': 'driver:PrivacyOnboarding',
  'PUT /internal/onboardings/{onboardingId}/portrayals/{portrayalId}': 'driver:ReviewRegisterConfirm',
  'PUT /internal/portrayals/{portrayalId}/{kind}': 'driver:DocumentScanUpload',
  'PUT /internal/portrayals/{portrayalId}/lifeproof': 'driver:TakeSelfieAliveUpload',
  'PUT /public/accounts/{accountId}/onboarding': 'driver:CompleteOnboarding',
  'PUT /public/credentials/{userId}/active': 'driver:UserActivate',
  'PUT /public/credentials/{userId}/inactive': 'driver:UserDeactivate',
  'PUT /public/credentials/{userId}/sids/{sid}/state': 'driver:AccreditationState',
  'PUT /public/credentials/active': 'driver:AdminActivateAll',
  'PUT /public/credentials/inactive': 'driver:AdminDeactivateAll',
  'PUT /public/users/deleteAllData': 'driver:AdminDeleteAllData',
  'PUT /public/visits/{id}/checkin': 'driver:ProcessVisitCheckIn',
  'PUT /public/visits/{id}/checkout': 'driver:ProcessVisitCheckOut',
};

/** The rows no journey drives yet: call → where it is made. */
export const PENDING_ROWS: Record<string, string> = Object.fromEntries(
  Object.entries(MATRIX_ROWS).filter(([, row]) => !row.startsWith('driver:')),
);

/** The journeys a row names (none for a row not driven yet). */
export const rowDrivers = (row: string | undefined): string[] =>
  (row ?? '')
    .split(' ')
    .filter((part) => part.startsWith('driver:'))
    .map((part) => part.slice('driver:'.length));
