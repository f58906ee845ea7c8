// Generates hostile contact CSVs for the import tests (issue 9), each with what it holds: the
// data records it really contains (their fields exactly as written and the physical line each
// starts on), or the whole-file refusal it must get. Nothing is checked in: every file is built
// here from a seed, so a failure names a file that can be rebuilt.
//
// The model is the file as a person sees it in an editor: CRLF, LF and a lone CR each end a
// line; a line break inside double quotes belongs to the value; a line whose values are all
// blank (spaces, tabs, nothing) is not a contact. Everything else after the header is a record
// that must come out either uploaded or rejected.

export type Eol = '\n' | '\r\n' | '\r';
export const EOLS: readonly Eol[] = ['\n', '\r\n', '\r'];

export interface Line {
  fields: string[];
  eol: Eol;
  /** 'needed' (default): quote a field only when it must be; 'all': every field; 'raw': never (the caller vouches). */
  quote?: 'needed' | 'all' | 'raw';
}

export interface CsvRecord {
  /** The physical line the record starts on (1 = the first line of the file). */
  line: number;
  fields: string[];
}

export interface HostileCsv {
  name: string;
  bytes: Buffer;
  /** A whole-file refusal (exit 2, nothing sent) and what its message says. */
  refusal?: RegExp;
  /** Header names as the file has them. */
  header: string[];
  /** Data records after the header, in file order. */
  records: CsvRecord[];
  /** Blank lines after the header (skipped and counted, not records). */
  blank: number;
}

/** A small seeded generator (mulberry32), so every file is the same on every run. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];

/** Line breaks in a value as an editor counts them: CRLF, LF and a lone CR one each. */
export function lineBreaks(s: string): number {
  return (s.match(/\r\n|\r|\n/g) ?? []).length;
}

const isBlank = (fields: string[]) => fields.every((f) => f.trim() === '');

function field(f: string, quote: Line['quote']): string {
  if (quote === 'raw') return f;
  if (quote === 'all' || /[",\r\n]/.test(f)) return `"${f.replace(/"/g, '""')}"`;
  return f;
}

/**
 * Serialises lines into a file and works out what it holds. `finalEol: false` leaves the last
 * line unterminated. A lone CR followed by an empty line ending in LF would read as one CRLF, so
 * such an empty line gets a CR instead (the file stays what the model says).
 */
export function build(name: string, lines: Line[], o: { bom?: boolean; finalEol?: boolean; refusal?: RegExp; encode?: (text: string) => Buffer } = {}): HostileCsv {
  let text = o.bom ? '\ufeff' : '';
  let at = 1;
  let header: string[] | undefined;
  const records: CsvRecord[] = [];
  let blank = 0;
  lines.forEach((l, i) => {
    const body = l.fields.map((f) => field(f, l.quote)).join(',');
    let eol = l.eol;
    const next = lines[i + 1];
    if (eol === '\r' && next && next.fields.map((f) => field(f, next.quote)).join(',') === '' && next.eol !== '\r') next.eol = '\r';
    if (i === lines.length - 1 && o.finalEol === false) {
      eol = '' as Eol;
      if (body === '') return; // nothing after the last line end: no line at all
    }
    text += body + eol;
    const start = at;
    at += 1 + l.fields.reduce((n, f) => n + lineBreaks(f), 0);
    if (isBlank(l.fields)) {
      if (header) blank++;
      return;
    }
    if (!header) header = l.fields;
    else records.push({ line: start, fields: l.fields });
  });
  return { name, bytes: o.encode ? o.encode(text) : Buffer.from(text, 'utf8'), refusal: o.refusal, header: header ?? [], records, blank };
}

/** What `physicalRecords` finds in a text: the header, the data records, the blank lines, or a quote never closed. */
export interface ReadCsv {
  header?: string[];
  /** Data records after the header, with which fields were quoted in the source. */
  records: Array<CsvRecord & { quoted: boolean[] }>;
  blank: number;
  /** The text ends inside a quoted value (the import refuses such a file whole). */
  unclosed: boolean;
}

/**
 * The physical records of any text, however badly quoted, as the import must account for them.
 *
 * A physical record starts at the beginning of a line that is not inside a quoted value, and
 * runs to the first line end (CRLF, LF or a lone CR) outside a quoted value. A quoted value opens
 * with a `"` at the start of a field and closes at a `"` followed by a comma, a line end or the end
 * of the text (`""` inside it is one quote); every line end inside it belongs to the value. So a
 * stray `"` at the start of a field makes every line up to the next closing quote ONE physical
 * record (starting on the line of its first character), to be uploaded or rejected once as a whole
 * — the lines it swallowed are not records of their own. A `"` anywhere else in an unquoted field
 * is a character like any other. (Quotes are relaxed as csv-parse's relax_quotes reads them: a
 * `"` inside a quoted value followed by anything else ends the quoting, and the value keeps that
 * `"` and gains one before it; a NUL after a `"` ends it too.) Line numbers count CRLF, LF and a lone CR one each,
 * over the whole text, as an editor shows them. Records whose values are all blank are blank
 * lines (counted after the header, skipped before it); the first other record is the header.
 */
export function physicalRecords(text: string): ReadCsv {
  const s = text.startsWith('\ufeff') ? text.slice(1) : text;
  const all: Array<CsvRecord & { quoted: boolean[] }> = [];
  let line = 1;
  let start = 1;
  let fields: string[] = [];
  let quoted: boolean[] = [];
  let field = '';
  let quoting = false;
  let wasQuoting = false;
  const endField = () => {
    fields.push(field);
    quoted.push(wasQuoting);
    field = '';
    wasQuoting = false;
  };
  const endRecord = () => {
    endField();
    all.push({ line: start, fields, quoted });
    fields = [];
    quoted = [];
  };
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    const lineEnd = c === '\n' || (c === '\r' && s[i + 1] !== '\n') ? 1 : c === '\r' ? 2 : 0;
    if (quoting) {
      if (c === '"') {
        const next = s[i + 1];
        if (next === '"') {
          field += '"';
          i++;
        } else {
          quoting = false;
          wasQuoting = true;
          // Not a closing quote: the value so far gets a `"` before it and this `"` after it.
          if (!(next === undefined || next === '\0' || next === ',' || next === '\r' || next === '\n')) field = `"${field}"`;
        }
        continue;
      }
      if (lineEnd) line++;
      field += lineEnd === 2 ? '\r\n' : c;
      if (lineEnd === 2) i++;
      continue;
    }
    if (c === '"' && field === '') quoting = true;
    else if (c === ',') endField();
    else if (lineEnd) {
      endRecord();
      line++;
      start = line;
      if (lineEnd === 2) i++;
    } else field += c;
  }
  if (quoting) return { records: [], blank: 0, unclosed: true };
  if (wasQuoting || fields.length || field !== '') endRecord();
  const out: ReadCsv = { records: [], blank: 0, unclosed: false };
  for (const r of all) {
    if (isBlank(r.fields)) {
      if (out.header) out.blank++;
    } else if (!out.header) out.header = r.fields;
    else out.records.push(r);
  }
  return out;
}

/** A file given as text (stray quotes and all): what it holds is read by physicalRecords. */
export function fromText(name: string, text: string): HostileCsv {
  const read = physicalRecords(text);
  return { name, bytes: Buffer.from(text, 'utf8'), header: read.header ?? [], records: read.records.map(({ line, fields }) => ({ line, fields })), blank: read.blank, ...(read.unclosed ? { refusal: /never closed/ } : {}) };
}

const NAMES = ['Ann', 'Lin, Mei', 'Bob "the builder"', '王小明', 'Zoë', ' padded ', 'O\'Brien', 'a\tb', '😀 emoji', '', 'x'.repeat(100), '\u202eevil', '=1+1', '-5', '@home', '+44'];

/** Rows of mostly valid contacts with a sprinkling of every kind of bad row, seeded. */
export function contacts(r: () => number, n: number, o: { prefix: string; eols?: readonly Eol[]; extra?: number; bad?: boolean; quote?: Line['quote'] }): Line[] {
  const out: Line[] = [];
  for (let i = 0; i < n; i++) {
    let email = `${o.prefix}${i}@example.com`;
    let name = pick(r, NAMES);
    const roll = r();
    if (o.bad !== false) {
      if (roll < 0.04) email = `${o.prefix}${i}.example.com`; // no @
      else if (roll < 0.08 && i > 0) email = `${o.prefix.toUpperCase()}${Math.floor(r() * i)}@EXAMPLE.com`; // duplicate by case
      else if (roll < 0.1) email = `  ${email}\t`; // padded: trimmed on upload
      else if (roll < 0.12) name = 'n'.repeat(101); // too long
      else if (roll < 0.14) name = 'two\nlines'; // quoted line break: data
      else if (roll < 0.16) name = 'cr\r\nlf'; // quoted CRLF: data
    }
    const fields = [email, name, ...Array.from({ length: o.extra ?? 0 }, (_, k) => `v${k}-${i}`)];
    if (o.bad !== false && roll > 0.98) fields.pop(); // one value short
    out.push({ fields, eol: pick(r, o.eols ?? EOLS), quote: o.quote });
  }
  return out;
}

const hdr = (names: string[], eol: Eol = '\n'): Line => ({ fields: names, eol });

function utf16be(text: string): Buffer {
  const le = Buffer.from(text, 'utf16le');
  for (let i = 0; i + 1 < le.length; i += 2) [le[i], le[i + 1]] = [le[i + 1], le[i]];
  return le;
}

/** The corpus: at least 40 files, every line-ending mix, BOMs, quoting, NULs, sizes, refusals. */
export function hostileCorpus(seed = 9): HostileCsv[] {
  const r = rng(seed);
  const files: HostileCsv[] = [];
  const add = (f: HostileCsv) => files.push(f);
  const simple = (eols: readonly Eol[], n = 30, prefix = 'p') => [hdr(['EMAIL', 'NAME'], eols[0]), ...contacts(r, n, { prefix, eols })];

  // Line endings.
  add(build('lf', simple(['\n'])));
  add(build('crlf', simple(['\r\n'])));
  add(build('cr', simple(['\r'])));
  add(build('mixed-per-line', simple(EOLS, 60)));
  add(build('issue-9-example', [hdr(['EMAIL', 'NAME', 'PLAN'], '\r\n'), { fields: ['u0@example.com', 'Ann'], eol: '\n' }, { fields: ['u1@example.com', 'Bob'], eol: '\r\n' }, { fields: ['u2@example.com', 'Cy', 'pro'], eol: '\r\n' }]));
  add(build('lone-cr-in-lf', [hdr(['EMAIL', 'NAME']), ...contacts(r, 20, { prefix: 'lc', eols: ['\n'] }), { fields: ['cr@example.com', 'Cr'], eol: '\r' }, ...contacts(r, 5, { prefix: 'lc2', eols: ['\n'] })]));
  add(build('lone-lf-in-crlf', [hdr(['EMAIL', 'NAME'], '\r\n'), ...contacts(r, 20, { prefix: 'll', eols: ['\r\n'] }), { fields: ['lf@example.com', 'Lf'], eol: '\n' }, ...contacts(r, 5, { prefix: 'll2', eols: ['\r\n'] })]));
  add(build('no-final-eol', simple(['\n'], 10), { finalEol: false }));
  add(build('final-lone-cr', [...simple(['\n'], 10), { fields: ['last@example.com', 'Last'], eol: '\r' }]));
  add(build('header-crlf-rows-cr', [hdr(['EMAIL', 'NAME'], '\r\n'), ...contacts(r, 20, { prefix: 'hc', eols: ['\r'] })]));

  // Byte-order marks and encodings.
  add(build('utf8-bom-crlf', simple(['\r\n'], 20, 'b'), { bom: true }));
  add(build('utf8-bom-mixed', simple(EOLS, 20, 'bm'), { bom: true }));
  add(build('utf16le-bom', simple(EOLS, 20, 'le'), { bom: true, encode: (t) => Buffer.from(t, 'utf16le') }));
  add(build('utf16be-bom', simple(['\r\n'], 20, 'be'), { bom: true, encode: utf16be }));
  add(build('utf16le-no-bom', simple(['\r\n'], 20, 'nb'), { encode: (t) => Buffer.from(t, 'utf16le'), refusal: /UTF-16[\s\S]*--encoding utf16le/ }));

  // Quoting.
  add(build('quoted-newlines', [hdr(['EMAIL', 'NAME', 'NOTE']), ...Array.from({ length: 30 }, (_, i): Line => ({ fields: [`q${i}@example.com`, pick(r, NAMES), pick(r, ['a\nb', 'a\r\nb', 'a\rb', '\n', 'x\r\n\r\ny', 'end\r', '\rstart', 'a\n\rb'])], eol: pick(r, EOLS) }))]));
  add(build('quoted-commas', [hdr(['EMAIL', 'NAME', 'CITY']), ...Array.from({ length: 20 }, (_, i): Line => ({ fields: [`c${i}@example.com`, `Last, First ${i}`, ',,,'], eol: '\r\n' }))]));
  add(build('doubled-quotes', [hdr(['EMAIL', 'NAME']), ...Array.from({ length: 20 }, (_, i): Line => ({ fields: [`d${i}@example.com`, `"${i}" said ""hi""`], eol: pick(r, EOLS) }))]));
  add(build('all-quoted', [{ fields: ['EMAIL', 'NAME'], eol: '\r\n', quote: 'all' }, ...contacts(r, 30, { prefix: 'aq', quote: 'all' })]));
  add(build('inner-quotes-unquoted', [hdr(['EMAIL', 'NAME']), ...Array.from({ length: 10 }, (_, i): Line => ({ fields: [`iq${i}@example.com`, `Bob "B${i}" Smith`], eol: pick(r, EOLS), quote: 'raw' }))]));
  // A stray quote: valid CSV whose quoted value swallows the contacts below it, up to the next quote.
  add(fromText('stray-quote-in-name', 'EMAIL,NAME,PLAN\nx@example.com,"Bob\nsq1@example.com,Ann,pro\r\nsq2@example.com,Cy,pro\nsq3@example.com,"Dee",pro\nsq4@example.com,Ed,pro\n'));
  add(fromText('stray-quote-in-custom-field', `EMAIL,NAME,NOTE\r\n${contacts(r, 40, { prefix: 'sf', bad: false, extra: 1, eols: ['\r\n'] }).map((l, i) => l.fields.map((f) => (i === 7 ? f.replace(/^v0-/, '"v0-') : f.replace(/[",\r\n]/g, ' '))).join(',')).join('\r\n')}\r\nsf-last@example.com,Last,"end"\r\n`));
  add(build('unterminated-quote', [hdr(['EMAIL', 'NAME']), { fields: ['a@example.com', '"Ann'], eol: '\n', quote: 'raw' }, { fields: ['b@example.com', 'B'], eol: '\n' }], { refusal: /never closed/ }));
  add(build('unterminated-quote-last-line', [hdr(['EMAIL', 'NAME']), ...contacts(r, 10, { prefix: 'ul', bad: false }), { fields: ['z@example.com', '"Zed'], eol: '\r\n', quote: 'raw' }], { refusal: /starts on line 12 is never closed/ }));

  // NULs.
  add(build('nul-in-name', [hdr(['EMAIL', 'NAME']), ...contacts(r, 10, { prefix: 'n1' }), { fields: ['nul@example.com', 'A\u0000nn'], eol: '\n', quote: 'raw' }]));
  add(build('nul-in-quoted-field', [hdr(['EMAIL', 'NAME']), { fields: ['nq@example.com', 'x,\u0000'], eol: '\r\n' }, ...contacts(r, 5, { prefix: 'n2' })]));
  add(build('nul-in-email', [hdr(['EMAIL', 'NAME']), { fields: ['a\u0000@example.com', 'A'], eol: '\n' }, { fields: ['\u0000', ''], eol: '\n' }, ...contacts(r, 5, { prefix: 'n3' })]));

  // Sizes.
  add(build('very-long-name', [hdr(['EMAIL', 'NAME']), { fields: ['long@example.com', 'L'.repeat(200_000)], eol: '\n' }, ...contacts(r, 5, { prefix: 'vl' })]));
  add(build('very-long-field', [hdr(['EMAIL', 'NAME', 'NOTE']), { fields: ['big@example.com', 'Big', 'x,"\n'.repeat(300_000)], eol: '\r\n' }, { fields: ['after@example.com', 'After', ''], eol: '\r' }]));
  add(build('very-long-email', [hdr(['EMAIL', 'NAME']), { fields: [`${'a'.repeat(300)}@example.com`, 'A'], eol: '\n' }, { fields: [`${'a'.repeat(65)}@example.com`, 'B'], eol: '\n' }, { fields: [`${'a'.repeat(64)}@example.com`, 'C'], eol: '\n' }]));
  const wide = ['EMAIL', 'NAME', ...Array.from({ length: 1998 }, (_, i) => `F${i}`)];
  add(build('many-columns', [hdr(wide), ...contacts(r, 12, { prefix: 'mc', extra: 1998 })]));
  add(build('many-columns-ragged', [hdr(wide), ...Array.from({ length: 12 }, (_, i): Line => ({ fields: [`mr${i}@example.com`, 'R', ...Array.from({ length: Math.floor(r() * 2100) }, () => 'v')], eol: pick(r, EOLS) }))]));

  // Nothing to import.
  add(build('header-only', [hdr(['EMAIL', 'NAME'], '\r\n')], { refusal: /no contacts/ }));
  add(build('header-only-trailing-blanks', [hdr(['EMAIL', 'NAME']), { fields: [''], eol: '\r\n' }, { fields: [' ', ' '], eol: '\r' }, { fields: [''], eol: '\n' }], { refusal: /no contacts/ }));
  add(build('empty', [], { refusal: /is empty/ }));
  add(build('whitespace-only', [{ fields: ['  '], eol: '\n' }, { fields: ['\t'], eol: '\r\n' }, { fields: [' '], eol: '\r' }], { refusal: /is empty/ }));
  add(build('bom-only', [], { bom: true, refusal: /is empty/ }));

  // Headers refused whole.
  add(build('duplicate-header-case', [hdr(['EMAIL', 'NAME', 'City', 'CITY']), ...contacts(r, 3, { prefix: 'dh', extra: 2 })], { refusal: /duplicate column names/ }));
  add(build('duplicate-header-space', [hdr(['EMAIL', 'NAME', 'City', ' City ']), ...contacts(r, 3, { prefix: 'ds', extra: 2 })], { refusal: /duplicate column names/ }));
  add(build('duplicate-header-email', [hdr(['EMAIL', 'NAME', 'email']), ...contacts(r, 3, { prefix: 'de', extra: 1 })], { refusal: /duplicate column names/ }));
  add(build('no-header', contacts(r, 5, { prefix: 'nh', bad: false }), { refusal: /no header line/ }));
  add(build('header-nul', [hdr(['EMAIL', 'NAME', 'Ci\u0000ty']), ...contacts(r, 3, { prefix: 'hn', extra: 1 })], { refusal: /header line .* NUL/ }));

  // Unicode in addresses (the rule is ASCII: these are rejected, never lost), and around them.
  add(build('unicode-emails', [hdr(['EMAIL', 'NAME']), ...['user@bücher.de', 'user@xn--bcher-kva.de', 'a\uff20example.com', 'a\u200b@example.com', '\u200bb@example.com', '\u00a0nbsp@example.com\u00a0', 'ｆｕｌｌ@example.com', 'c@example.com\u202e', 'd@exa\u0301mple.com', 'e@example.com'].map((e, i): Line => ({ fields: [e, `U${i}`], eol: pick(r, EOLS) }))]));
  add(build('odd-names', [hdr(['EMAIL', 'NAME']), ...['\u202egnp.exe', '\u001b]0;title\u0007', 'tab\there', '😀'.repeat(50), '中'.repeat(100), '中'.repeat(101), ' \u3000 '].map((n, i): Line => ({ fields: [`on${i}@example.com`, n], eol: pick(r, EOLS) }))]));

  // Blank lines.
  add(build('trailing-blank-lines', [...simple(['\r\n'], 10, 't'), { fields: [''], eol: '\r\n' }, { fields: [''], eol: '\n' }, { fields: [''], eol: '\r' }, { fields: ['', ''], eol: '\n' }, { fields: ['  '], eol: '\r\n' }]));
  add(build('blank-lines-between', [hdr(['EMAIL', 'NAME']), { fields: [''], eol: '\n' }, ...contacts(r, 5, { prefix: 'bl1' }), { fields: ['   '], eol: '\r' }, { fields: ['', '', ''], eol: '\r\n' }, { fields: ['\n'], eol: '\n' }, ...contacts(r, 5, { prefix: 'bl2' })]));
  add(build('blank-before-header', [{ fields: [''], eol: '\r\n' }, { fields: ['  '], eol: '\n' }, ...simple(EOLS, 8, 'bh')]));

  // Rows the service would judge too.
  add(build('duplicates-by-case', [hdr(['EMAIL', 'NAME']), ...['dup@example.com', 'DUP@example.com', ' Dup@Example.COM ', 'dup@example.com'].map((e, i): Line => ({ fields: [e, `D${i}`], eol: pick(r, EOLS) }))]));
  add(build('formula-cells', [hdr(['EMAIL', 'NAME', 'NOTE']), ...['=HYPERLINK("http://x","y")', '+cmd', '-2+3', '@SUM(A1)', '\tlead', '\uff1dfull'].flatMap((f, i): Line[] => [{ fields: [`f${i}@example.com`, f, f], eol: '\n' }, { fields: [f, f, f], eol: '\r\n' }])]));
  add(build('unnamed-and-reserved-columns', [hdr(['EMAIL', 'NAME', '', 'PHONE', ' ']), ...contacts(r, 10, { prefix: 'un', extra: 3 })]));

  // Larger files: the file import (100 rows and more), and a CR|LF split where the CLI's 256 KiB reads end.
  add(build('file-import-mixed', [hdr(['EMAIL', 'NAME', 'NOTE']), ...contacts(r, 400, { prefix: 'fi', extra: 1 })]));
  add(build('many-rows-mixed', [hdr(['EMAIL', 'NAME']), ...contacts(r, 5000, { prefix: 'mr' })]));
  add(chunkSplit('crlf-split-at-read-boundary', false));
  add(chunkSplit('quoted-crlf-split-at-read-boundary', true));
  return files;
}

/** A file whose CR and LF fall on either side of byte 262,144, outside or inside quotes. */
function chunkSplit(name: string, quoted: boolean): HostileCsv {
  const boundary = 1 << 18;
  const lines: Line[] = [hdr(['EMAIL', 'NAME'], '\r\n')];
  let size = 'EMAIL,NAME\r\n'.length;
  let i = 0;
  for (;;) {
    const email = `s${i++}@example.com`;
    // The row that reaches the boundary is padded so that its CR is the last byte before it.
    const left = boundary - 1 - size - email.length - 1 - (quoted ? 1 : 0);
    if (left < 400) {
      const name = quoted ? `${'p'.repeat(left)}\r\nnext` : 'p'.repeat(left);
      lines.push({ fields: [email, name], eol: '\r\n' });
      break;
    }
    const name = `Name ${i}`;
    lines.push({ fields: [email, name], eol: '\r\n' });
    size += email.length + 1 + name.length + 2;
  }
  lines.push(...Array.from({ length: 20 }, (_, k): Line => ({ fields: [`t${k}@example.com`, 'T'], eol: '\r\n' })));
  const f = build(name, lines);
  const cr = f.bytes.indexOf('\r\n', boundary - 4);
  if (cr !== boundary - 1) throw new Error(`${name}: the CR is at ${cr}, not at ${boundary - 1}`);
  return f;
}
