// Preload for the Prisma 6 migrate CLI: its Wasm schema engine leaves a long timer behind that
// keeps the process alive ~10 s after the work is done. Unref long timers so it exits at once.
const original = global.setTimeout;
global.setTimeout = function patchedSetTimeout(fn, ms, ...args) {
  const t = original(fn, ms, ...args);
  if (typeof ms === 'number' && ms >= 1000 && t && typeof t.unref === 'function') t.unref();
  return t;
};
