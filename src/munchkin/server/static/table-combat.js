/* Munchkin table page: the combat panel. The fight's two sides, what makes up each strength, who is winning; a
   fight just over stays up a few seconds, and "Show the last fight" brings it back. Plain ES2020, no build step. */
"use strict";

const Combat = (() => {
  const { el, fill, plural } = M;
  const { $, S, view, signed, cardText } = Page;
  const { kindIcon } = Board;
  const { logLine } = GameLog;

  const FIGHT_LINGER_MS = 6000; // how long a fight just over stays up, so that a bot's fight can be followed

  function partsTable(parts, caption) {
    if (!parts || !parts.length) return null;
    return el(
      "table",
      { class: "parts" },
      el("caption", { class: "visually-hidden" }, caption),
      el(
        "tbody",
        null,
        parts.map(([label, value]) => el("tr", null, el("th", { scope: "row" }, cardText(label)), el("td", null, signed(value))))
      )
    );
  }

  /** A fight over, from a state message: kept for the "Last fight" button; one that ends while the page
   * watches stays up a few seconds (not one told on connecting: that may be long over). */
  function noteFight(m, first) {
    const v = m.view;
    if (v && v.combat && Object.keys(v.combat).length) S.fightOpen = false; // a fight on: the live one shows
    const f = m.last_fight;
    if (!f || typeof f !== "object" || !f.combat) return;
    const fresh = !S.lastFight || S.lastFight.id !== f.id;
    S.lastFight = f;
    if (!fresh || first || (v && v.over)) return;
    S.fightOpen = "linger";
    clearTimeout(S.fightTimer);
    S.fightTimer = setTimeout(() => {
      if (S.fightOpen !== "linger") return;
      S.fightOpen = false;
      renderCombat();
    }, FIGHT_LINGER_MS);
  }

  /** Open or close the last fight in the combat panel (the "Last fight" button). */
  function toggleLastFight() {
    clearTimeout(S.fightTimer);
    S.fightOpen = S.fightOpen ? false : "open";
    renderCombat();
    if (S.fightOpen) {
      const panel = $("combat-panel");
      panel.scrollIntoView({ behavior: M.scrollMotion(), block: "nearest" });
      $("combat-heading").focus({ preventScroll: true });
    } else {
      const again = $("last-fight-button");
      if (again) again.focus({ preventScroll: true });
    }
  }

  /** Above the log: how the last fight ended, and the button that shows it again (or hides it). */
  function renderLastFightBar(live) {
    const bar = $("last-fight-bar");
    const f = S.lastFight;
    const v = view();
    bar.hidden = !f || live || !v || v.over;
    if (bar.hidden) return;
    const open = !!S.fightOpen;
    const b = el(
      "button",
      { type: "button", id: "last-fight-button", class: "small", "aria-controls": "combat-panel", "aria-expanded": open ? "true" : "false" },
      open ? "Hide the last fight" : "Show the last fight"
    );
    b.addEventListener("click", toggleLastFight);
    fill(bar, el("strong", null, "Last fight: "), cardText(String(f.outcome || "")), " ", b);
  }

  function renderCombat() {
    const v = view();
    const panel = $("combat-panel");
    const live = v && v.combat && Object.keys(v.combat).length && !v.over ? v.combat : null;
    const over = !live && S.fightOpen && S.lastFight && v && !v.over ? S.lastFight : null;
    renderLastFightBar(!!live);
    panel.classList.toggle("fight-over", !!over);
    fill($("combat-heading"), el("span", { "aria-hidden": "true" }, "⚔"), over ? " The fight is over" : " Combat");
    if (!live && !over) {
      panel.hidden = true;
      if (typeof Look !== "undefined") Look.markCombat(null, null, S.version);
      return;
    }
    panel.hidden = false;
    drawCombat(live || over.combat, over);
    if (live && typeof Look !== "undefined") Look.markCombat($("combat"), live, S.version); // highlight what was just played
    if (over && typeof Look !== "undefined") Look.markCombat(null, null, S.version);
  }

  /** The fight's two sides and verdict; for a fight over (`over`: the last fight), how it ended first, then
   * its last strengths, then what happened in it. */
  function drawCombat(c, over) {
    const side = c.side_strength;
    const mon = c.monster_strength;
    const win = !!c.fighters_winning;
    const diff = Math.abs(side - mon);
    const verdict = win
      ? [el("strong", null, over ? "▲ The fighters were winning" : "▲ The fighters are winning"), `: ${side} against ${mon}.`]
      : [
          el("strong", null, over ? "▼ The monsters were winning" : "▼ The monsters are winning"),
          `: ${mon} against ${side}`,
          side === mon
            ? " (a tie goes to the monsters, unless a Warrior fights)."
            : ` (the fighters ${over ? "were" : "are"} ${diff} behind).`,
        ];
    const fighters = (c.fighters || []).map((f) =>
      el(
        "div",
        { class: "fighter" },
        el("h4", null, f.player, el("span", { class: "strength" }, ` strength ${f.strength}`)),
        partsTable(f.parts, `What makes up ${f.player}'s strength`)
      )
    );
    const oneShots = c.one_shots && c.one_shots.length
      ? el("div", { class: "fighter one-shots" }, el("h4", null, "One-shot bonuses"), partsTable(c.one_shots, "One-shot bonuses for the fighters"))
      : null;
    const monsters = (c.monsters || []).map((m) => {
      const base = String(m.monster).replace(/ \(Mate\)$/, "");
      const selected = S.filter && S.filter.type === "name" && S.filter.name === base;
      const nameBtn = el(
        "button",
        {
          type: "button",
          class: "monster-name" + (selected ? " selected" : ""),
          "aria-haspopup": "dialog",
          dataset: { card: base }, // its face opens on hover, focus, click or tap (cardface.js)
        },
        kindIcon({ name: base, kind: "monster" }),
        m.monster
      );
      return el(
        "div",
        { class: "monster" },
        el("h4", null, nameBtn, el("span", { class: "strength" }, ` strength ${m.strength}`)),
        el("p", { class: "treasures" }, `Worth ${plural(m.treasures, "Treasure")}`),
        partsTable(m.parts, `What makes up ${m.monster}'s strength`)
      );
    });
    const close = over ? el("button", { type: "button", id: "last-fight-close", class: "small" }, "Close") : null;
    const linesOpen = !!document.querySelector("#combat details.fight-lines[open]"); // kept open across states
    if (close) close.addEventListener("click", toggleLastFight);
    fill(
      $("combat"),
      over
        ? el(
            "p",
            { id: "fight-outcome", class: "fight-outcome", role: "status" },
            el("strong", null, cardText(String(over.outcome || "The fight is over."))),
            " ",
            el("span", { class: "hint" }, "As the fight stood at the end:")
          )
        : null,
      el("p", { id: "combat-verdict", class: "verdict " + (win ? "fighters-win" : "monsters-win") }, verdict),
      el(
        "div",
        { class: "sides" },
        el(
          "section",
          { class: "side side-fighters", "aria-label": "Fighters" },
          el("h3", null, "Fighters ", el("span", { class: "total" }, `total ${side}`)),
          fighters,
          oneShots
        ),
        el("div", { class: "versus", "aria-hidden": "true" }, "vs"),
        el(
          "section",
          { class: "side side-monsters", "aria-label": "Monsters" },
          el("h3", null, "Monsters ", el("span", { class: "total" }, `total ${mon}`)),
          monsters
        )
      ),
      over && (over.lines || []).length
        ? el(
            "details",
            { class: "fight-lines", open: linesOpen },
            el("summary", null, "What happened in it"),
            el("ol", { class: "log" }, over.lines.map(logLine))
          )
        : null,
      close
    );
  }

  return { noteFight, renderCombat };
})();
