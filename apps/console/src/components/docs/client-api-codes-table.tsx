import {
  CLIENT_API_SERVER_ERROR_CODE,
  clientApiCodeMeanings,
  clientApiCodes,
} from '@latchkey/contracts';

/** The closed list of /api/v1 codes, straight from packages/contracts. */
export function ClientApiCodesTable() {
  return (
    <div className="grid gap-3">
      <div
        tabIndex={0}
        role="region"
        aria-label="Client API codes"
        className="overflow-x-auto rounded-lg border border-border outline-none focus-visible:ring-[3px] focus-visible:ring-ring/60"
      >
        <table className="w-full min-w-[28rem] text-left text-sm" data-testid="client-api-codes">
          <caption className="sr-only">Client API codes</caption>
          <thead className="bg-muted/60 text-xs text-muted-foreground">
            <tr>
              <th scope="col" className="px-3 py-2 font-medium">
                Code
              </th>
              <th scope="col" className="px-3 py-2 font-medium">
                Meaning
              </th>
            </tr>
          </thead>
          <tbody>
            {clientApiCodes.map((code) => (
              <tr key={code} className="border-t border-border">
                <td className="px-3 py-2 font-mono text-xs whitespace-nowrap">{code}</td>
                <td className="px-3 py-2">{clientApiCodeMeanings[code]}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="text-sm text-muted-foreground">
        A 5xx answer is a server fault, not part of the contract: its body has the same shape with
        the code <code className="font-mono">{CLIENT_API_SERVER_ERROR_CODE}</code>. Treat it like a
        network error.
      </p>
    </div>
  );
}
