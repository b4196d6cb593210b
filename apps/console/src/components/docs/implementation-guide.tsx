import { clientRefusalTitles, clientSessionTiming, type ClientApiCode } from '@latchkey/contracts';

const {
  heartbeatIntervalSeconds,
  verifyIntervalSeconds,
  maxConsecutiveVerifyFailures,
  httpTimeoutSeconds,
  maxSignatureAgeSeconds,
} = clientSessionTiming;

/** The client flow every sample follows, with its timing constants. */
export function ImplementationGuide() {
  const refusals = Object.entries(clientRefusalTitles) as [
    ClientApiCode,
    { title: string; exits: boolean },
  ][];
  return (
    <ol className="grid list-decimal gap-3 pl-5 text-sm leading-relaxed">
      <li>
        <strong>Embed the settings.</strong> The API key, the base URL, your application&apos;s
        version (1.0.0 unless you set another) and its signing public key. Send JSON with a{' '}
        {httpTimeoutSeconds}-second timeout.
      </li>
      <li>
        <strong>Log in.</strong> Post username, password, version and hardware ID to{' '}
        <code className="font-mono">/api/v1/login</code>, with the login button disabled while
        waiting. Show the server&apos;s <code className="font-mono">message</code> on success and on
        failure: it is your application&apos;s own text.
      </li>
      <li>
        <strong>Act on the code, not the message</strong> (you may rewrite messages):
        <ul className="mt-2 grid list-disc gap-1 pl-5">
          {refusals.map(([code, { title, exits }]) => (
            <li key={code}>
              <code className="font-mono">{code}</code>: show &lsquo;{title}&rsquo;
              {exits ? ', then exit' : ''}.
            </li>
          ))}
        </ul>
      </li>
      <li>
        <strong>Verify, then open the main screen.</strong> Post the returned{' '}
        <code className="font-mono">user_id</code> to{' '}
        <code className="font-mono">/api/v1/verify</code>. If it fails, warn the user, clear the
        form and stay on the login screen.
      </li>
      <li>
        <strong>Monitor the session.</strong> Start it once with{' '}
        <code className="font-mono">/api/v1/session/track</code> (the{' '}
        <code className="font-mono">session_token</code> login returned), send a heartbeat every{' '}
        {heartbeatIntervalSeconds} seconds and verify every {verifyIntervalSeconds / 60} minutes.
        After {maxConsecutiveVerifyFailures} verify failures in a row, log out: end the session,
        stop the timers, show &lsquo;Your session has expired. Please login again.&rsquo; and return
        to a cleared login screen. Network errors while monitoring are only logged.
      </li>
      <li>
        <strong>Log out.</strong> End the session, stop the timers and show &lsquo;You have been
        logged out.&rsquo;
      </li>
      <li>
        <strong>Remember the user.</strong> Save the <code className="font-mono">user_id</code>{' '}
        after a login; on the next start verify it, and clear it if verification fails.
      </li>
      <li>
        <strong>Identify the machine.</strong> The hardware ID is a SHA-256 hash of machine
        identifiers (processor, board, machine id), the same on every start.
      </li>
      <li>
        <strong>Trust only signed answers.</strong> Check every response&apos;s signature (below)
        and refuse a timestamp more than {maxSignatureAgeSeconds / 60} minutes from your clock; an
        answer that fails is never a success.
      </li>
    </ol>
  );
}
