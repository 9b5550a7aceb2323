// Business constants of spec §9, named once.
export const APP_VERSION = '0.13.0';
export const DEFAULT_ACS_ID_SCHEMA = 'string64';
export const RESULT_POLL_INTERVAL_MS = 2000;
export const RESULT_POLL_TIMEOUT_MS = 16000;
export const BROKER_TOKEN_ATTEMPTS = 3;
export const BROKER_TOKEN_BASE_DELAY_MS = 300;
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;
export const CHUNK_RETRY_INTERVAL_MS = 5_000;
export const IMAGE_MIN_BYTES = 5 * 1024;
export const IMAGE_MAX_BYTES = 5 * 1024 * 1024;
export const QR_VALIDITY_DAYS = 15;
export const MAX_ELEMENTS_PER_FILE = 1000;
export const WATCHLIST_MAX_BYTES = 10 * 1024 * 1024;
