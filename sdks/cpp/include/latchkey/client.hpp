#ifndef LATCHKEY_CLIENT_HPP
#define LATCHKEY_CLIENT_HPP

// The client of one Latchkey application.

#include <latchkey/activation_request.hpp>
#include <latchkey/errors.hpp>
#include <latchkey/latchkey_export.h>
#include <latchkey/offline_license.hpp>
#include <latchkey/result.hpp>

#include <chrono>
#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace latchkey {

struct ClientOptions {
  // Bounds one whole request (a download has at least ten minutes).
  std::chrono::milliseconds timeout{30000};
  // http://[user:password@]host:port: an http: server is reached through it in absolute form,
  // an https: one through a CONNECT tunnel, TLS end to end. Empty: connect directly (the
  // environment's proxy variables are not followed: the program decides).
  std::string proxy;
  // This machine's HWID as logins (and a trial's start, unless it names another) send it;
  // machine_id() when not given.
  std::optional<std::string> hwid;
  // Names this machine in the user's devices; none sent when empty.
  std::string device_name;
  // How many times a safe call is tried again.
  int retries = 2;
  // The longest wait before trying again: a longer Retry-After answers the 429 as the result.
  std::chrono::milliseconds max_retry_delay{30000};
  // How far an answer's signing time may be from this machine's clock.
  std::chrono::seconds max_clock_skew{300};
};

// The session a login opened: its token and its user.
struct Session {
  std::string token;
  std::string user_id;
};

struct HeartbeatOptions {
  // 30 s, as the server expects (90 s without one is not live).
  std::chrono::milliseconds interval{30000};
  // The server ended the session (paused, expired, released...): the loop has stopped.
  std::function<void(const Result&)> on_revoked;
  // A beat failed (network, a refused answer); the loop goes on.
  std::function<void(const std::exception&)> on_error;
};

// A client of one Latchkey application. Every answer is checked before it is read: its Ed25519
// signature under the pinned key, this request's nonce in it, its time within the clock
// window; a refused answer throws SignatureError, a network or server failure TransportError.
// Business outcomes (a wrong password, an expired account) are results with a code, never
// exceptions. A call that needs a session when none is open throws std::logic_error (a
// programming error). The client never prints, never exits the process and never shows a
// window.
//
// One client may be used from several threads; calls are not serialised (each is its own HTTP
// exchange), the session is shared. The client keeps its connections to the server open between
// calls (a call that must never be sent twice, such as a login, opens a new one).
class LATCHKEY_EXPORT Client {
 public:
  // base_url is the server's origin (http: or https:), api_key the application's API key,
  // public_key its Ed25519 public key (64 hex digits: pinned, so an answer signed by any other
  // key is refused), version this program's version. Throws std::invalid_argument when one of
  // them cannot be right.
  Client(std::string base_url, std::string api_key, std::string public_key, std::string version,
         ClientOptions options = {});
  // Stops the heartbeat loop (an exchange in flight is abandoned) and waits for its thread;
  // the connections the client kept open close with it.
  ~Client();
  Client(const Client&) = delete;
  Client& operator=(const Client&) = delete;

  // A new account; with license_key, the key is redeemed in the same step. No session: log in
  // next. (register is a C++ keyword, hence the name.)
  Result register_user(const std::string& username, const std::string& password,
                       const std::optional<std::string>& email = std::nullopt,
                       const std::optional<std::string>& license_key = std::nullopt);
  // Logs in and opens the session (session/track start with the token the login issued), so
  // heartbeat, checkout and the user's variables can follow. A refused start answers in the
  // login's place.
  Result login(const std::string& username, const std::string& password);
  // The same, the user required to hold every one of required_entitlements (verify) before the
  // session opens: when one is missing, no session opens and the answer is the login's with
  // the verify's refusal over it (its code, message and missing_entitlements), without a
  // session_token. An overload rather than a defaulted parameter, so a program built against
  // the library without it keeps linking.
  Result login(const std::string& username, const std::string& password,
               const std::vector<std::string>& required_entitlements);
  // Logs in with a licence key alone (its first use creates the user) and opens the session.
  Result license_login(const std::string& license_key);
  // The same, required_entitlements as for login.
  Result license_login(const std::string& license_key,
                       const std::vector<std::string>& required_entitlements);
  // Starts this machine's trial, or logs in the one it already has, and opens the session;
  // required_entitlements as for login. The application offers one trial per machine (hwid,
  // this client's hwid() unless given): the first call creates a trial account (named
  // username, else "trial-" and random hex) ending after the application's trial days, with its
  // trial entitlements; every later call from the machine, whatever username it sends, logs in
  // that same account. TRIAL_UNAVAILABLE when the application offers no trial, TRIAL_EXPIRED
  // once the machine's trial has ended (expires_at says when), TRIAL_USED when the vendor
  // deleted its account. Never sent twice, as a login.
  Result start_trial(const std::optional<std::string>& hwid = std::nullopt,
                     const std::optional<std::string>& username = std::nullopt,
                     const std::vector<std::string>& required_entitlements = {});
  // Resumes a session saved from session() at an earlier start, without the password: one
  // heartbeat with its token, and when the server answers OK the client adopts it (heartbeat,
  // checkout and the user's variables follow); otherwise the client has no session. Any
  // session the client had is forgotten first. Answers the heartbeat's result.
  Result resume_session(const std::string& token, const std::string& user_id);
  // Adds a licence key to an account; the password proves the holder.
  Result redeem(const std::string& username, const std::string& password,
                const std::string& license_key);
  // Is the user (the session's, unless user_id is given) in good standing now, holding every
  // entitlement asked for?
  Result verify(const std::optional<std::string>& user_id = std::nullopt,
                const std::optional<std::vector<std::string>>& entitlements = std::nullopt);
  // Keeps the session alive. A refusal that ends it (paused, expired, released...) forgets it
  // here too, and a running heartbeat loop stops and reports it to its on_revoked.
  Result heartbeat();
  // Ends the session (nullopt when there is none). It is over here whatever the server answers.
  std::optional<Result> end_session();
  // An application variable; the session is sent when there is one (most variables need it).
  Result get_variable(const std::string& name);
  // One of the session's user's own variables.
  Result get_user_variable(const std::string& name);
  // Creates or replaces one of the session's user's variables, unless the vendor made it
  // read-only.
  Result set_user_variable(const std::string& name, const std::string& value);
  // Counts amount units against the session's user's usage meter name: METER_EXHAUSTED when a
  // refusing meter would pass its allowance for the period (nothing counted; the result still
  // says where the meter stands), METER_NOT_FOUND when no active plan of the user has it. The
  // result's fields are name, allowance, used, remaining, overage, resets_at and, when
  // counted, replayed. Each increment carries an idempotency key (idempotency_key, or a random
  // UUID), so the server counts it once however often it arrives: it is retried like the
  // other safe calls, with the same key, and a repeat is answered as the first time with
  // replayed true. A program that tries an increment again itself passes the same key.
  Result use_meter(const std::string& name, long long amount = 1,
                   const std::optional<std::string>& idempotency_key = std::nullopt);
  // Releases this machine's seat (or, with all_devices, every device of the user) where the
  // application allows it; the server ends those devices' sessions, so this one is forgotten.
  Result reset_devices(const std::string& username, const std::string& password,
                       bool all_devices = false);
  // Mails a link to choose a new password to the account named by username or by email
  // (exactly one: both or neither throws std::invalid_argument, before anything is sent). The
  // answer is the same whether or not the account exists. Never sent twice: each request may
  // send a mail, so its 429 is its answer.
  Result forgot_password(const std::optional<std::string>& username,
                         const std::optional<std::string>& email = std::nullopt);
  // Mails a new link to confirm the account's e-mail address, for an application that lets only
  // confirmed addresses log in; the password proves the holder. The answer is the same whatever
  // the account. Never sent twice.
  Result resend_verification(const std::string& username, const std::string& password);
  // An offline licence for the session: one line (LK1.…, or LK1E.… with encrypt) to store as
  // the program likes and check with verify_offline_license when the server is out of reach.
  Result checkout(std::optional<long long> ttl_seconds = std::nullopt, bool encrypt = false);
  // Borrows the session's floating seat for days (1 to 365, at most the plan's maxBorrowDays):
  // an offline licence, as checkout answers (LK1.…, or LK1E.… with encrypt), holding for those
  // days, and the seat kept taken until then, even once the session has ended, unless
  // return_seat gives it back sooner. BORROW_NOT_ALLOWED when the user's plan is not floating
  // or allows fewer days. Borrowing again issues another licence for the same seat, so it is
  // retried like checkout.
  Result borrow_seat(long long days, bool encrypt = false);
  // Gives back the seat this client last borrowed (with borrow_seat, even if its session has
  // ended since), or else the current session's borrowed seat, before the borrow ends: another
  // computer may then take it. The licence already issued cannot be recalled: discard it.
  // SESSION_INVALID when that login has no borrowed seat. Giving a seat back twice changes
  // nothing, so it is retried like the other safe calls. Throws std::logic_error when the
  // client has neither a borrowed seat nor a session.
  Result return_seat();
  // Downloads one of the application's files to destination: a signed answer names its URL,
  // size and SHA-256, the bytes are streamed beside destination and kept only when they match
  // (else SignatureError Digest, and no file). sha256, from an update offer, must also be the
  // file's. On success the result adds path. A file that needs a session and was published
  // after the user's updates window is refused with UPDATES_EXPIRED.
  Result download(const std::string& file_id, const std::string& destination,
                  const std::optional<std::string>& sha256 = std::nullopt);
  // The release a login refused with VERSION_MISMATCH or UPDATES_EXPIRED offers, or nullopt:
  // the current release, or, for a user whose updates window ended before it was published,
  // the newest release published within the window (the one they may run). The v1 API has no
  // call of its own for it: the offer rides, signed, on the login's answer.
  std::optional<UpdateOffer> check_for_update(const Result& answer) const;

  // Checks an offline licence with this application's pinned key and this machine's HWID (or
  // the one given), without the network.
  OfflineLicenseCheck verify_offline_license(const std::string& license,
                                             const OfflineLicenseTerms& terms = {}) const;
  OfflineLicenseCheck verify_offline_license(const std::string& license, const std::string& hwid,
                                             const OfflineLicenseTerms& terms = {}) const;

  // An activation request for this machine, written without the network: the text (LKA1.…)
  // the user of a machine that never reaches the server pastes into the application's portal
  // (/portal/<publicId>) on another computer, signed in or with options.license_key; the portal
  // answers an offline licence for this machine (LK1E.… with options.encrypt) to paste back and
  // check with verify_offline_license. It names this application's key, this machine (hwid(),
  // or the hwid given) and the client's device_name unless options names another; nonce and
  // now only pin what would otherwise be random and this machine's clock. Neither license_key
  // nor username is needed when the user signs in to the portal. Throws std::invalid_argument
  // as latchkey::create_activation_request does.
  std::string create_activation_request(const ActivationRequestOptions& options = {}) const;
  std::string create_activation_request(const std::string& hwid,
                                        const ActivationRequestOptions& options = {}) const;

  // Heartbeats the session every interval on a thread of its own. When the server ends the
  // session, the loop stops and on_revoked is told why; network failures and refused answers
  // go to on_error and the loop goes on. The callbacks run on the loop's thread (a GUI program
  // hands them to its own) and must not destroy this client. Needs a session.
  void start_heartbeat(HeartbeatOptions options = {});
  // Stops the loop; an exchange in flight is abandoned, and no callback follows.
  void stop_heartbeat();

  // This machine's id for this application: its own identifier (Windows MachineGuid, macOS
  // IOPlatformUUID, Linux /etc/machine-id; the host name where none can be read) hashed with
  // the application's public key, so the raw identifier never leaves the machine.
  std::string machine_id() const;
  // The machine id of a raw identifier for a public key: SHA-256 (lower-case hex) of
  // "latchkey-machine-id-v1.{public key, lower case}.{raw id, trimmed}", the same in every
  // Latchkey SDK.
  static std::string hash_machine_id(const std::string& raw_machine_id,
                                     const std::string& public_key_hex);
  // This machine's own identifier, as machine_id() hashes it.
  static std::string raw_machine_id();

  // The HWID this client sends.
  const std::string& hwid() const;
  // The session the last login (or resume_session) opened, or nullopt.
  std::optional<Session> session() const;

  // The client's state, shared with its heartbeat thread (the library's own).
  struct State;

 private:
  std::shared_ptr<State> state_;
};

}  // namespace latchkey

#endif
