// The examples a command's --help promises to work against a fresh --sandbox: every line that
// starts with `mailctl --sandbox` (with its `\` continuation lines), split into argv the way a
// POSIX shell would (single and double quotes, backslash escapes).

export function sandboxExamples(help: string): string[][] {
  const lines = help.split('\n');
  const out: string[][] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/^\s*mailctl --sandbox /.test(lines[i])) continue;
    let cmd = lines[i].trim();
    while (cmd.endsWith('\\') && i + 1 < lines.length) cmd = cmd.slice(0, -1) + ' ' + lines[++i].trim();
    out.push(shellWords(cmd).slice(1));
  }
  return out;
}

export function shellWords(s: string): string[] {
  const words: string[] = [];
  let cur = '';
  let inWord = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === "'") {
      const end = s.indexOf("'", i + 1);
      cur += s.slice(i + 1, end);
      i = end;
      inWord = true;
    } else if (c === '"') {
      let j = i + 1;
      for (; s[j] !== '"'; j++) cur += s[j] === '\\' && /["\\$`]/.test(s[j + 1]) ? s[++j] : s[j];
      i = j;
      inWord = true;
    } else if (c === '\\') {
      cur += s[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(cur);
      cur = '';
      inWord = false;
    } else {
      cur += c;
      inWord = true;
    }
  }
  if (inWord) words.push(cur);
  return words;
}
