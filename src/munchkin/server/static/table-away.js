/* Munchkin table page: people not at the table. When a bot comes in for their seat (counted down, or at once),
   and "Welcome back" for a person a bot stood in for. Plain ES2020, no build step. */
"use strict";

const Away = (() => {
  const { el, fill } = M;
  const { $, tableId, S, view, mySeat, isSpectator, info, clockText } = Page;
  const { send } = Conn;

  // ---------------- people not at the table: what happens to their seat, and when

  let absentTick = null;

  /** A line for every person's seat nobody is at: "Bob has not joined yet — a bot plays for them in 0:24
   * [Let a bot play now]", "A bot is playing for Bob until they join"; nothing once the game is over. */
  function renderAbsent() {
    const box = $("absent-notice");
    const v = view();
    const seats = ((S.msg && S.msg.seats) || []).filter((s) => s.kind === "human" && !s.connected && s.seat !== mySeat());
    const shown = seats.length && !(v && v.over) && !(S.msg && S.msg.stopped);
    const canCall = !isSpectator();
    // drawn anew only when what it says changes (a live region: not re-read at every state); the countdowns tick
    const key = JSON.stringify([shown, canCall, S.connected, seats.map((s) => [s.seat, s.joined, s.stand_in, typeof s.bot_in])]);
    if (box.dataset.key === key) return;
    box.dataset.key = key;
    clearInterval(absentTick);
    if (!shown) {
      box.hidden = true;
      box.replaceChildren();
      return;
    }
    const line = (s) => {
      const joined = s.joined !== false;
      if (s.stand_in) {
        return el(
          "li",
          { class: "absent stand-in", dataset: { seat: String(s.seat) } },
          el(
            "span",
            null,
            el("span", { "aria-hidden": "true" }, "⚙ "),
            joined ? `A bot is playing for ${s.name} until they come back.` : `A bot is playing for ${s.name} until they join.`
          )
        );
      }
      const who = joined ? `${s.name} is away` : `${s.name} has not joined yet`;
      const when =
        typeof s.bot_in === "number"
          ? [" — a bot plays for them in ", el("span", { class: "bot-countdown", role: "timer", "aria-live": "off", dataset: { seat: String(s.seat) } }, clockText(S.botDeadlines[s.seat] || 0)), "."]
          : " — a bot plays for them once a person is at the table.";
      let button = null;
      if (canCall) {
        button = el("button", { type: "button", id: `bot-now-${s.seat}`, class: "small bot-now", disabled: !S.connected }, "Let a bot play now");
        button.title = `A bot plays ${s.name}'s seat from now on, until they ${joined ? "come back" : "join"}`;
        button.addEventListener("click", () => {
          if (send({ type: "stand_in", seat: s.seat })) button.disabled = true;
        });
      }
      return el("li", { class: "absent", dataset: { seat: String(s.seat) } }, el("span", null, who, when), button);
    };
    fill(box, el("ul", null, seats.map(line)));
    box.hidden = false;
    if (box.querySelector(".bot-countdown")) absentTick = setInterval(tickAbsent, 250);
  }

  /** The absent seats' countdowns, from the deadlines of the last state (four times a second). */
  function tickAbsent() {
    for (const n of document.querySelectorAll("#absent-notice .bot-countdown")) {
      const at = S.botDeadlines[Number(n.dataset.seat)];
      if (at !== undefined) n.textContent = clockText(at);
    }
  }

  const awaySeconds = () => {
    const a = info("away_seconds");
    return typeof a === "number" ? a : null;
  };
  const SEEN_KEY = () => `munchkin.seen.${tableId}.${mySeat()}`;

  function showBack(text) {
    const box = $("back-notice");
    fill(box, el("strong", null, "Welcome back. "), text);
    box.classList.add("shown");
    clearTimeout(S.backTimer);
    S.backTimer = setTimeout(() => {
      box.classList.remove("shown");
      box.replaceChildren();
    }, 20000);
  }

  function standInText() {
    const a = awaySeconds();
    return (
      `A bot played your seat while you were away${a ? ` (a bot stands in after ${a} s away)` : ""}: ` +
      "any moves made for you meanwhile were the bot's. See “What happened” for them."
    );
  }

  /** At hello: back after longer than the table's away time (this page's own reconnection, or a reload). */
  function checkAbsence() {
    if (isSpectator()) return;
    const a = awaySeconds();
    let since = S.lostAt;
    if (!since) {
      try {
        since = Number(localStorage.getItem(SEEN_KEY())) || 0;
      } catch (_) {
        since = 0;
      }
    }
    S.lostAt = 0;
    if (a !== null && since && (Date.now() - since) / 1000 >= a) S.absentLong = true;
  }

  /** The seats' stand_in flags: this page's seat seen stood in, or a stand-in just ended, means the
   * person is back after a bot played for them; a long absence (see checkAbsence) says the same. */
  function trackStandIn(m) {
    if (isSpectator()) return;
    const mine = (m.seats || []).find((x) => x.seat === mySeat());
    const now = !!(mine && mine.stand_in);
    const over = !!(m.view && m.view.over);
    const started = now && S.myStandIn !== true;
    const ended = S.myStandIn === true && !now;
    if (!over && (started || ended || S.absentLong)) showBack(standInText());
    S.absentLong = false;
    S.myStandIn = now;
    markSeen();
  }

  /** When this seat last had the table open (for a reload after a long absence). */
  function markSeen() {
    if (isSpectator() || !S.connected) return;
    try {
      localStorage.setItem(SEEN_KEY(), String(Date.now()));
    } catch (_) {
      /* private mode */
    }
  }
  setInterval(markSeen, 5000);

  return { renderAbsent, checkAbsence, trackStandIn };
})();
