#ifndef LATCHKEY_H
#define LATCHKEY_H

/*
 * The Latchkey client's C interface, for C programs and for other languages to bind (through
 * ctypes, P/Invoke, cgo, JNA...): an opaque client, one generic call that takes and answers
 * JSON text, the offline licence check, the activation request and the machine id. Every
 * function here catches whatever the C++ library throws: nothing crosses this boundary but
 * return values.
 *
 * Strings in and out are UTF-8 and NUL-terminated. Every char* this interface returns is the
 * caller's, to release with latchkey_free(); NULL only when memory ran out.
 */

#include <latchkey/latchkey_export.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct latchkey_client latchkey_client;

/*
 * A client of one application (see latchkey::Client): base_url, api_key, public_key (64 hex
 * digits) and version as for the C++ constructor; options_json is NULL or a JSON object with
 * any of "timeout_ms", "proxy", "hwid", "device_name", "retries", "max_retry_delay_ms",
 * "max_clock_skew_seconds". On failure answers NULL and, when error_out is not NULL, sets
 * *error_out to a message (release it with latchkey_free).
 */
LATCHKEY_EXPORT latchkey_client* latchkey_client_create(const char* base_url, const char* api_key,
                                                        const char* public_key,
                                                        const char* version,
                                                        const char* options_json,
                                                        char** error_out);

/* Stops the client's heartbeat loop and releases it. NULL is ignored. */
LATCHKEY_EXPORT void latchkey_client_destroy(latchkey_client* client);

/*
 * One call of the client, named as in C++ ("login", "license_login", "start_trial",
 * "resume_session", "register_user" (or "register"), "redeem", "verify", "heartbeat",
 * "end_session", "get_variable", "get_user_variable", "set_user_variable", "use_meter",
 * "reset_devices", "forgot_password", "resend_verification", "checkout", "borrow_seat",
 * "return_seat", "download", "check_for_update", "verify_offline_license",
 * "create_activation_request"), its arguments a JSON object keyed by the C++ parameter names
 * ({"username": ..., "password": ...}; NULL for none; times as ISO 8601 strings;
 * "required_entitlements" an array of strings; for "create_activation_request", "hwid" and the
 * fields of latchkey::ActivationRequestOptions).
 * Answers a JSON object:
 *   {"value": <the result, with the wire's field names, or null>}
 *   {"error": {"type": "SignatureError" | "TransportError" | "UsageError",
 *              "reason": "<the closed list's reason>", "message": "..."}}
 * UsageError (reasons "invalid-argument", "no-session", "unknown-call") is a mistake of the
 * calling program, never an outcome of the server.
 */
LATCHKEY_EXPORT char* latchkey_client_call(latchkey_client* client, const char* call,
                                           const char* input_json);

/* What the heartbeat loop reports: a revocation's result, or an error's {"type", "reason",
 * "message"}, as JSON text valid during the call; called on the loop's own thread. */
typedef void (*latchkey_heartbeat_callback)(const char* json, void* context);

/*
 * Starts the heartbeat loop (every interval_ms; 30000 when 0). Answers 0, or -1 with
 * *error_out set (when not NULL) when the client has no session.
 */
LATCHKEY_EXPORT int latchkey_client_start_heartbeat(latchkey_client* client, long interval_ms,
                                                    latchkey_heartbeat_callback on_revoked,
                                                    latchkey_heartbeat_callback on_error,
                                                    void* context, char** error_out);
LATCHKEY_EXPORT void latchkey_client_stop_heartbeat(latchkey_client* client);

/* The HWID the client sends (its machine id unless one was given). */
LATCHKEY_EXPORT char* latchkey_client_hwid(const latchkey_client* client);

/*
 * Checks an offline licence without the network; terms_json is NULL or a JSON object with any
 * of "application_id", "now", "last_seen_at" (ISO 8601) and "clock_tolerance_seconds".
 * Answers {"success", "code", "message", "content"?}, or {"error": ...} for arguments that
 * cannot be right (a public key that is not 64 hex digits).
 */
LATCHKEY_EXPORT char* latchkey_verify_offline_license(const char* license,
                                                      const char* public_key,
                                                      const char* hwid,
                                                      const char* terms_json);

/*
 * An activation request for an air-gapped machine (see latchkey::create_activation_request),
 * written without the network: public_key (64 hex digits) and hwid (this machine's HWID exactly
 * as the program sends it at login) required; options_json NULL or a JSON object with any of
 * "license_key", "username", "device_name", "encrypt" (a boolean), "nonce" and "now" (ISO 8601).
 * Answers {"request": "LKA1...."}, or {"error": ...} for arguments that cannot be right.
 */
LATCHKEY_EXPORT char* latchkey_create_activation_request(const char* public_key, const char* hwid,
                                                         const char* options_json);

/* This machine's id for the application of public_key (64 hex digits); NULL when it is not. */
LATCHKEY_EXPORT char* latchkey_machine_id(const char* public_key);

/* The machine id of a raw machine identifier; NULL when public_key is not 64 hex digits. */
LATCHKEY_EXPORT char* latchkey_hash_machine_id(const char* raw_machine_id,
                                               const char* public_key);

/* Releases a string this interface returned. NULL is ignored. */
LATCHKEY_EXPORT void latchkey_free(char* text);

/* The library's version, "0.1.0"; static, not to be released. */
LATCHKEY_EXPORT const char* latchkey_version(void);

#ifdef __cplusplus
}
#endif

#endif
