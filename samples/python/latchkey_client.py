# Latchkey client sample for Python (skeleton; the full sample replaces it).
API_KEY = "YOUR_API_KEY"
BASE_URL = "YOUR_LATCHKEY_URL"
APP_VERSION = "YOUR_APP_VERSION"
SIGNING_PUBLIC_KEY = "YOUR_SIGNING_PUBLIC_KEY"
