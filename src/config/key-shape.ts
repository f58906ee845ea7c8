// What an API key may hold: printable ASCII without spaces (0x21–0x7E). A key goes into an HTTP
// header, so a control character could end the header early or smuggle another one in, and a
// space, a non-ASCII character (a no-break space, a curly quote pasted from a web page) or a line
// break only ever comes from a bad copy: the service would refuse it, and every error would print
// the whole value. So a key is checked where it enters — `config set-key`, the environment, the
// config file — and refused with exit 3. The sentence says what kind of character and where, never
// any of the key: not even a part of it, since the part shown could be the bad one.

export type KeyFault = 'a control character' | 'a space' | 'a non-ASCII character';

/** The first character a key may not hold and where (1-based, in characters), or undefined when the key is well-formed. */
export function keyFault(key: string): { fault: KeyFault; at: number } | undefined {
  let at = 0;
  for (const ch of key) {
    at++;
    const c = ch.codePointAt(0)!;
    if (c < 0x20 || c === 0x7f) return { fault: 'a control character', at };
    if (c === 0x20) return { fault: 'a space', at };
    if (c > 0x7e) return { fault: 'a non-ASCII character', at };
  }
  return undefined;
}

/** "holds a control character (character 12)", or undefined for a well-formed key. */
export function keyProblem(key: string): string | undefined {
  const f = keyFault(key);
  return f && `holds ${f.fault} (character ${f.at}); a key is printable ASCII without spaces`;
}
