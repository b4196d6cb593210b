/**
 * Answers that many requests share (verify's success answer for a user whose standing is
 * cached) are serialized once, when made, rather than on every request: the v1 scope's reply
 * serializer looks them up first. The text is exactly JSON.stringify's, so signatures and
 * clients see the same bytes as before. Such an answer must never be changed after it is made.
 */
const serializedAnswers = new WeakMap<object, string>();

export function serializeOnce<Answer extends object>(answer: Answer): Answer {
  serializedAnswers.set(answer, JSON.stringify(answer));
  return answer;
}

/** The /api/v1 scope's reply serializer: the text made once, else JSON.stringify. */
export function serializeClientAnswer(payload: unknown): string {
  return (
    (typeof payload === 'object' && payload !== null && serializedAnswers.get(payload)) ||
    JSON.stringify(payload)
  );
}
