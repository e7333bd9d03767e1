// Console output of the launcher: numbered steps with their duration, and child process output
// prefixed with the app's name. Kept free of process state so the tests can drive it.

/** A failure the user can act on: `message` says what went wrong, `hint` what to do. */
export class StepError extends Error {
  constructor(message, hint) {
    super(message);
    this.name = 'StepError';
    this.hint = hint;
  }
}

/** Raised by Steps.run: which step failed, with the original error as `cause`. */
export class StepFailure extends Error {
  constructor(step, index, total, cause) {
    super(`step ${index}/${total} "${step}" failed: ${cause?.message ?? cause}`, { cause });
    this.name = 'StepFailure';
    this.step = step;
    this.hint = cause?.hint;
  }
}

export const formatDuration = (ms) =>
  ms < 60_000
    ? `${(ms / 1000).toFixed(1)} s`
    : `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;

const COLORS = { red: 31, green: 32, yellow: 33, blue: 34, magenta: 35, cyan: 36, gray: 90 };
const PALETTE = ['cyan', 'magenta', 'blue', 'yellow', 'green'];

/**
 * Writes lines to a stream. A step's "[1/7] build ..." stays open so its result can follow on
 * the same line, unless other output comes first.
 */
export class Output {
  constructor(write = (s) => process.stdout.write(s), { color = false } = {}) {
    this.rawWrite = write;
    this.color = color;
    this.open = false;
  }

  paint(color, text) {
    return this.color && COLORS[color] ? `\x1b[${COLORS[color]}m${text}\x1b[0m` : text;
  }

  /** Starts a line that `finish` completes. */
  begin(text) {
    this.closeOpenLine();
    this.rawWrite(text);
    this.open = true;
  }

  /** Completes the line `begin` started, or repeats `again` on a new line when it was broken. */
  finish(text, again) {
    this.rawWrite(this.open ? ` ${text}\n` : `${again} ${text}\n`);
    this.open = false;
  }

  line(text = '') {
    this.closeOpenLine();
    this.rawWrite(`${text}\n`);
  }

  closeOpenLine() {
    if (this.open) this.rawWrite('\n');
    this.open = false;
  }
}

/**
 * Returns `push(chunk)` and `flush()` that print a child's output line by line as
 * `name | line`. Chunks may end in the middle of a line; the rest waits for the next chunk.
 */
export function linePrefixer(out, name, { width = name.length, color } = {}) {
  let pending = '';
  const label = out.paint(color, `${name.padEnd(width)} |`);
  const emit = (line) => out.line(`${label} ${line}`);
  return {
    push(chunk) {
      const lines = (pending + chunk.toString()).split(/\r?\n/);
      pending = lines.pop();
      for (const line of lines) emit(line);
    },
    flush() {
      if (pending) emit(pending);
      pending = '';
    },
  };
}

export const colorFor = (index) => PALETTE[index % PALETTE.length];

/** Runs the launcher's steps in order, printing "[i/n] name ... ok (1.2 s, note)". */
export class Steps {
  constructor(names, out, now = () => Date.now()) {
    this.names = names;
    this.out = out;
    this.now = now;
  }

  label(name) {
    const i = this.names.indexOf(name);
    if (i < 0) throw new Error(`unknown step ${name}`);
    return { index: i + 1, text: `[${i + 1}/${this.names.length}] ${name}` };
  }

  /** `fn(step)` may call `step.note(text)` to add a detail to the result line. */
  async run(name, fn) {
    const { index, text } = this.label(name);
    const started = this.now();
    const notes = [];
    this.out.begin(`${text} ...`);
    try {
      const result = await fn({ note: (n) => notes.push(n) });
      const took = formatDuration(this.now() - started);
      this.out.finish(
        `${this.out.paint('green', 'ok')} (${[took, ...notes].join(', ')})`,
        `${text} ...`,
      );
      return result;
    } catch (err) {
      const took = formatDuration(this.now() - started);
      this.out.finish(`${this.out.paint('red', 'FAILED')} (${took})`, `${text} ...`);
      throw new StepFailure(name, index, this.names.length, err);
    }
  }

  skip(name, reason) {
    const { text } = this.label(name);
    this.out.line(`${text} ... ${this.out.paint('gray', `skipped (${reason})`)}`);
  }
}

/** The lines printed when the launcher stops on an error. */
export function failureReport(err) {
  const lines = [`✖ ${err?.message ?? err}`];
  if (err?.hint) for (const h of String(err.hint).split('\n')) lines.push(`  ${h}`);
  return lines;
}
