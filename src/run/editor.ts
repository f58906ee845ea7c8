// Text written in the person's editor ($VISUAL, else $EDITOR, else vim; notepad on Windows), read
// back through the one strict decoder (src/core/utf8.ts). inquirer's editor prompt guesses the
// saved file's encoding (chardet, then iconv), so bytes that are not UTF-8 came back as mojibake
// and were sent; here they are named by their offset and the same file is opened again, as the
// person left it, to fix. The temporary file lives in a private folder and is removed at the end.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Env } from '../core/env.js';
import { invalidUtf8At, notUtf8Sentence } from '../core/utf8.js';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../fs/safe-write.js';

export interface EditorCommand {
  bin: string;
  args: string[];
}

/** The editor the variables name, read as @inquirer/external-editor reads them ("code --wait", a quoted path with spaces). */
export function editorCommand(env: Env): EditorCommand {
  const set = env.VISUAL || env.EDITOR || (os.platform() === 'win32' ? 'notepad' : 'vim');
  let bin: string;
  let rest: string;
  if (set.startsWith('"') && set.indexOf('"', 1) > 0) {
    const close = set.indexOf('"', 1);
    bin = set.slice(1, close);
    rest = set.slice(close + 1).trim();
  } else {
    const space = set.indexOf(' ');
    bin = space < 0 ? set : set.slice(0, space);
    rest = space < 0 ? '' : set.slice(space + 1).trim();
  }
  return { bin, args: rest ? rest.split(/\s+/) : [] };
}

export interface EditOptions {
  initial: string;
  /** The file name's ending, so the editor picks its mode: ".html". */
  postfix: string;
  env: Env;
  validate?: (text: string) => true | string;
  /** The question before each opening (Enter opens the editor); throws GoBack or an interruption to leave. */
  ask: () => Promise<void>;
  /** A line the person reads before the question comes again. */
  tell: (line: string) => void;
}

/** Asks, opens the editor, and returns what was saved once it is UTF-8 text that `validate` accepts. */
export async function editText(o: EditOptions): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mailctl-edit-'));
  try {
    fs.chmodSync(dir, PRIVATE_DIR_MODE);
    const file = path.join(dir, `text${o.postfix.replace(/[^a-zA-Z0-9_.-]/g, '_')}`);
    fs.writeFileSync(file, o.initial, { flag: 'wx', mode: PRIVATE_FILE_MODE });
    const cmd = editorCommand(o.env);
    for (;;) {
      await o.ask();
      const launch = await runEditor(cmd, file);
      if (launch) {
        o.tell(launch);
        continue;
      }
      const bytes = fs.readFileSync(file);
      const at = invalidUtf8At(bytes);
      if (at >= 0) {
        // The file is kept as saved: the next opening shows the person their own text to fix.
        o.tell(`${notUtf8Sentence({ name: 'the text saved in the editor' }, at, false)} Save it as UTF-8 in the editor; it opens again as you left it.`);
        continue;
      }
      const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
      const text = bytes.toString('utf8', bom);
      const verdict = o.validate?.(text) ?? true;
      if (verdict !== true) {
        o.tell(verdict);
        continue;
      }
      return text;
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs the editor on the file and waits for it; a sentence when it could not be started. */
function runEditor(cmd: EditorCommand, file: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    const child = spawn(cmd.bin, [...cmd.args, file], { stdio: 'inherit', shell: false });
    child.once('error', (e) => resolve(`The editor ${cmd.bin} could not be started (${(e as NodeJS.ErrnoException).code ?? e.message}); set $VISUAL or $EDITOR to an editor you have.`));
    child.once('exit', () => resolve(undefined));
  });
}
