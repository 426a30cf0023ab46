/* Munchkin table page: the narration ("What happened"), line by line, kept at its newest line unless the reader
   scrolled up; drawn again once the card faces arrive, with card names to open. Plain ES2020, no build step. */
"use strict";

const GameLog = (() => {
  const { el, fill } = M;
  const { $, tableId, S, view, Faces, cardText } = Page;

  // The faces arrive after the first state: draw the log and the cards again with them.
  if (Faces) {
    Faces.load(tableId);
    Faces.whenReady(() => {
      S.logRendered = -1;
      if (view()) Table.render();
    });
  }

  function logLine(text) {
    const t = String(text);
    let cls = "";
    let shown = t;
    const turn = t.match(/^--- (.*) ---$/);
    if (turn) {
      cls = "turn-line";
      shown = turn[1];
    } else if (/ wins? the game!$/.test(t)) cls = "win-line";
    else if (/ dies \(/.test(t) || / catches /.test(t)) cls = "bad-line";
    return el("li", { class: cls || null }, cardText(shown));
  }

  // The log sticks to its newest line unless the reader has scrolled up to read older ones.
  let logStick = true;
  const logBox = $("log");
  logBox.addEventListener("scroll", () => {
    logStick = logBox.scrollHeight - logBox.scrollTop - logBox.clientHeight < 40;
  });
  if (window.ResizeObserver) {
    new ResizeObserver(() => {
      if (logStick) logBox.scrollTop = logBox.scrollHeight;
    }).observe(logBox);
  }

  function renderLog() {
    const box = logBox;
    if (S.logRendered < 0 || S.logRendered > S.log.length) {
      fill(box, S.log.map(logLine));
    } else {
      for (let i = S.logRendered; i < S.log.length; i++) box.appendChild(logLine(S.log[i]));
    }
    S.logRendered = S.log.length;
    if (logStick) box.scrollTop = box.scrollHeight;
  }

  return { logLine, renderLog };
})();
