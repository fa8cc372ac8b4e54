// Reading something again and again for a page that keeps itself current (the home page,
// a table's header and its rematch offer): only the latest read's answer is drawn, and a
// poll runs only while the tab is shown (and once more when it comes back into view).

// `load()` then `apply(answer)`, where an answer that comes after a later read began is
// dropped. Returns the read (a promise).
export function latest(load, apply) {
  let reads = 0;
  return async () => {
    const n = ++reads;
    const answer = await load();
    if (n === reads) apply(answer);
  };
}

// Call `read` every `seconds` while the tab is shown and when it is shown again; a failed
// read waits for the next. Returns what stops it.
export function whileShown(seconds, read) {
  const again = () => {
    if (document.visibilityState === "visible") read().catch(() => {});
  };
  const timer = setInterval(again, seconds * 1000);
  document.addEventListener("visibilitychange", again);
  return () => {
    clearInterval(timer);
    document.removeEventListener("visibilitychange", again);
  };
}
