// A write the disk refused (full, quota, read-only, an I/O error) as the run's error: DISK, exit 1,
// naming the file and, once a caller adds it, the command that resumes or reruns the work
// (docs/exit-codes.md, docs/durability.md). Decided from the errno code, never from words.
import { CliError, ExitCode } from '../core/errors.js';

/** errno codes that mean the disk, not mailctl, stopped the write. */
const DISK_PROBLEMS: Record<string, string> = {
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  EFBIG: 'the file has reached the largest size this file system allows',
  EIO: 'the disk reported an input/output error',
  EROFS: 'the file system is read-only',
};

/**
 * What a person does about each, as the start of a hint ("…, then run the command again"): the
 * full-disk advice is wrong for a read-only file system or a failing disk.
 */
const DISK_FIXES: Record<string, string> = {
  ENOSPC: 'Free some space on that disk',
  EDQUOT: 'Free some space within your disk quota',
  EFBIG: 'Write to a file system that allows larger files',
  EIO: 'Check that disk (the system log says what failed)',
  EROFS: 'Make that file system writable, or point MAILCTL_CONFIG_DIR (or the output path) elsewhere',
};

/**
 * A write the disk refused. `file` is where ('' when the system did not say: an errno error
 * caught with no path, which main's net reports), `errno` the system's code, `detail` what the
 * layer that met it called it (a store's own code, such as SQLITE_IOERR_SHMSIZE), when not errno.
 */
export class DiskError extends CliError {
  readonly file: string;
  readonly errno: string;
  readonly detail?: string;
  constructor(file: string, errno: string, hint?: string, detail?: string) {
    super(`${file ? `Could not write ${file}` : 'A file could not be written'}: ${DISK_PROBLEMS[errno] ?? `the write failed (${errno})`} (${detail ? `${errno}; ${detail}` : errno}).`, ExitCode.FAILED, hint, {
      code: 'DISK',
      reached: 'no',
      refused: false,
      retryable: false,
    });
    this.file = file;
    this.errno = errno;
    this.detail = detail;
  }

  /** What to do about it, as the start of a hint: "Free some space on that disk", or the read-only or I/O error's own fix. */
  get fix(): string {
    return DISK_FIXES[this.errno] ?? 'Check that disk';
  }

  /** The same error, with the command that resumes or reruns the interrupted work. */
  withHint(hint: string): DiskError {
    return new DiskError(this.file, this.errno, hint, this.detail);
  }
}

/** True for an errno error the disk caused (full, quota, I/O error, read-only). */
export function isDiskProblem(e: unknown): e is NodeJS.ErrnoException {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' && code in DISK_PROBLEMS;
}

/** `e` as a DiskError naming `file` when the disk caused it; anything else unchanged. */
export function asDiskError(e: unknown, file: string, hint?: string): unknown {
  if (e instanceof DiskError) return hint ? e.withHint(hint) : e;
  return isDiskProblem(e) ? new DiskError(file, e.code!, hint) : e;
}

