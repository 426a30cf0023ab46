/* Munchkin table page: a fair deal (docs/server.md, Provably fair deals). Before the deal, the commitment and
   everyone's entropy; after it, the notice; at the end, the secret and how to check it. Plain ES2020, no build step. */
"use strict";

const Fair = (() => {
  const { el, fill } = M;
  const { $, tableId, S, mySeat, isSpectator, isDevice, namesList, fairInfo, beforeDeal, clockText } = Page;
  const { send } = Conn;

  // ---------------- a fair deal: the commitment, everyone's entropy, and the secret once the game is over
  /** 32 random bytes from the browser, in hex: the entropy offered to a person (they may type their own). */
  function randomEntropy() {
    const bytes = new Uint8Array(32);
    crypto.getRandomValues(bytes);
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  const short = (hex) => (typeof hex === "string" && hex.length > 16 ? `${hex.slice(0, 8)}…${hex.slice(-8)}` : String(hex || ""));

  /** Each seat and the entropy it added, in words ("Ann (you): “tea”", "Bob: not yet", "Cy: a bot adds none"). */
  function entropyItems(f) {
    const seats = (S.msg && S.msg.seats) || [];
    return seats.map((s) => {
      const e = (f.entropy || [])[s.seat];
      const who = `${s.name}${s.seat === mySeat() ? " (you)" : ""}: `;
      const what =
        typeof e === "string"
          ? el("code", { class: "entropy" }, e)
          : s.kind === "bot"
            ? el("span", { class: "hint" }, "a bot adds none")
            : el("span", { class: "hint" }, f.dealt ? "none" : "not yet");
      return el("li", null, who, what);
    });
  }

  function renderFair() {
    const f = fairInfo();
    const panel = $("fair-panel");
    const notice = $("fair-notice");
    const pending = beforeDeal();
    panel.hidden = !pending;
    $("actions-panel").hidden = pending;
    if (pending) $("hand-panel").hidden = true;
    notice.hidden = !f || pending;
    if (!f) return;
    if (pending) {
      $("fair-commitment").textContent = f.commitment;
      fill($("fair-seats"), entropyItems(f));
      const mine = mySeat() !== null ? (f.entropy || [])[mySeat()] : undefined;
      const form = $("entropy-form");
      // a pass-and-play device gives one entropy for every person seat still without one
      const lacking = ((S.msg && S.msg.seats) || []).some((s) => s.kind === "human" && typeof (f.entropy || [])[s.seat] !== "string");
      form.hidden = isDevice() ? !lacking : isSpectator() || typeof mine === "string";
      const input = $("entropy-input");
      if (!form.hidden && !input.value) input.value = randomEntropy();
      const waiting = ((S.msg && S.msg.seats) || []).filter(
        (s) => s.kind === "human" && typeof (f.entropy || [])[s.seat] !== "string" && !s.stand_in
      );
      // when the deal comes at the latest, counted down (docs/server.md: the entropy window)
      fill(
        $("fair-status"),
        waiting.length ? `Waiting on ${namesList(waiting.map((s) => s.seat))} to add entropy. ` : "",
        S.dealDeadline === null
          ? "The cards are dealt once every person has added theirs, or a while after the first person sits down."
          : [
              "The cards are dealt once every person has added theirs, and in ",
              el("span", { id: "deal-countdown", class: "deal-countdown", role: "timer", "aria-live": "off" }, clockText(S.dealDeadline)),
              " at the latest.",
            ]
      );
      return;
    }
    if (notice.dataset.key !== `${f.commitment}|${!!f.secret}`) {
      notice.dataset.key = `${f.commitment}|${!!f.secret}`;
      fill(
        notice,
        el(
          "details",
          null,
          el("summary", null, el("strong", null, "Fair deal"), ` · commitment ${short(f.commitment)}`),
          el(
            "p",
            null,
            "Every shuffle and die roll at this table comes from the server's secret and the entropy below. The secret " +
              "stays on the server until the game ends; its commitment, shown from the start, is its SHA-256: "
          ),
          el("p", null, el("code", { class: "commitment" }, f.commitment)),
          el("ul", { class: "fair-seats" }, entropyItems(f)),
          f.secret ? el("p", null, "The secret, revealed: ", el("code", { class: "commitment" }, f.secret)) : null
        )
      );
    }
  }

  /** The end screen's word on the fair deal: the secret, and how to check every draw with it. */
  function fairEnd() {
    const f = fairInfo();
    if (!f || !f.secret) return null;
    return el(
      "div",
      { class: "fair-end" },
      el("h3", null, "Check the deal"),
      el("p", null, "The server's secret, revealed now: ", el("code", { class: "commitment", id: "fair-secret" }, f.secret)),
      el("p", null, "Its SHA-256 is the commitment shown from the start: ", el("code", { class: "commitment" }, f.commitment)),
      el(
        "p",
        null,
        "Download the replay and run ",
        el("code", null, `munchkin verify munchkin-${tableId}.json`),
        ": it recomputes every shuffle and die roll from the secret and everyone's entropy, and says whether the table dealt honestly."
      )
    );
  }

  setInterval(() => {
    const n = $("deal-countdown");
    if (n && S.dealDeadline !== null) n.textContent = clockText(S.dealDeadline);
  }, 250);

  $("entropy-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const input = $("entropy-input");
    const text = input.value.trim();
    if (!text) {
      input.focus();
      return;
    }
    send({ type: "entropy", entropy: text });
  });

  $("entropy-new").addEventListener("click", () => {
    $("entropy-input").value = randomEntropy();
  });

  return { renderFair, fairEnd };
})();
