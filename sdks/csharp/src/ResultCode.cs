namespace Latchkey
{
    /// <summary>
    /// The closed list of codes a client API answer carries, in the server's order.
    /// <see cref="LatchkeyResult.Success"/> is true exactly when the code is <see cref="OK"/>.
    /// The members are spelt as on the wire (and as the documentation's code table), so
    /// <c>ToString()</c> is the code the server sent.
    /// </summary>
    public enum ResultCode
    {
        OK,
        INVALID_CREDENTIALS,
        ACCOUNT_DISABLED,
        ACCOUNT_EXPIRED,
        VERSION_MISMATCH,
        HWID_MISMATCH,
        BLACKLISTED,
        USERNAME_TAKEN,
        APP_DISABLED,
        USER_NOT_FOUND,
        SESSION_INVALID,
        LICENSE_REQUIRED,
        LICENSE_INVALID,
        LICENSE_USED,
        LICENSE_BANNED,
        LICENSE_EXPIRED,
        NO_ACTIVE_SUBSCRIPTION,
        ENTITLEMENTS_MISSING,
        RESET_NOT_ALLOWED,
        RESET_COOLDOWN,
        DEVICE_NOT_FOUND,
        HWID_REQUIRED,
        VARIABLE_NOT_FOUND,
        VARIABLE_READ_ONLY,
        VARIABLE_LIMIT_REACHED,
        FILE_NOT_FOUND,
        METER_NOT_FOUND,
        METER_EXHAUSTED,
        UPDATES_EXPIRED,
        NO_SEAT_AVAILABLE,
        BORROW_NOT_ALLOWED,
        TRIAL_UNAVAILABLE,
        TRIAL_EXPIRED,
        TRIAL_USED,
        MAIL_UNAVAILABLE,
        EMAIL_NOT_VERIFIED,
        INVALID_REQUEST,
        INVALID_API_KEY,
        RATE_LIMITED,
    }
}
