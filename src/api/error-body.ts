// How the services word a refusal: the shapes of an error body (spec 000 section 7 `{code,
// invalidFields}`, decisions row 6 `{errorCode, message}`, spec 001 `{errors}`, `{error}`,
// `{success:false, messages:[…]}` or `message:[…]`), read into the service's code and its own
// words. The API layer puts these in the errors it throws; the sentence people read around them is
// the CLI layer's (src/cli/error-text.ts).

/** Reads any error body shape the services are known to use (decisions row 6) into code + detail. */
export function describeErrorBody(body: unknown): { code?: string; detail?: string; message?: string } {
  if (!body || typeof body !== 'object') return typeof body === 'string' && body ? { detail: body } : {};
  const b = body as Record<string, unknown>;
  const code = b.code ?? b.errorCode;
  const detailParts: string[] = [];
  if (typeof b.invalidFields === 'string' && b.invalidFields) detailParts.push(`invalid fields: ${b.invalidFields}`);
  else if (Array.isArray(b.invalidFields) && b.invalidFields.length) detailParts.push(`invalid fields: ${b.invalidFields.join(', ')}`);
  for (const k of ['message', 'errors', 'error']) {
    if (typeof b[k] === 'string' && b[k]) detailParts.push(b[k] as string);
  }
  const list = b.messages ?? (Array.isArray(b.message) ? b.message : undefined);
  if (Array.isArray(list) && list.length) detailParts.push(list.map(String).join('; '));
  return {
    code: code === undefined || code === null ? undefined : String(code),
    detail: detailParts.join('; ') || undefined,
    message: typeof b.message === 'string' ? b.message : undefined,
  };
}

