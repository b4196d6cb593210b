// Latchkey client sample for C++ (skeleton; the full sample replaces it).
static const char* const API_KEY = "YOUR_API_KEY";
static const char* const BASE_URL = "YOUR_LATCHKEY_URL";
static const char* const APP_VERSION = "YOUR_APP_VERSION";
static const char* const SIGNING_PUBLIC_KEY = "YOUR_SIGNING_PUBLIC_KEY";
int main() { return 0; }
