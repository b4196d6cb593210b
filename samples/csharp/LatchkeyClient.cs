// Latchkey client sample for C# (skeleton; the full sample replaces it).
public static class LatchkeySettings
{
    public const string ApiKey = "YOUR_API_KEY";
    public const string BaseUrl = "YOUR_LATCHKEY_URL";
    public const string AppVersion = "YOUR_APP_VERSION";
    public const string SigningPublicKey = "YOUR_SIGNING_PUBLIC_KEY";
}
