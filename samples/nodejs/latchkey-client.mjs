// Latchkey client sample for Node.js (skeleton; the full sample replaces it).
export const API_KEY = 'YOUR_API_KEY';
export const BASE_URL = 'YOUR_LATCHKEY_URL';
export const APP_VERSION = 'YOUR_APP_VERSION';
export const SIGNING_PUBLIC_KEY = 'YOUR_SIGNING_PUBLIC_KEY';
