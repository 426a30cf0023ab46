/* Munchkin table page: things to look at, not only read. The Level track with every player's marker,
   a brief highlight on what was just played into a fight, and the end screen's picture of each
   player's Level turn by turn with a few figures. Plain ES2020, no build step; table.js and its parts call it. */
"use strict";

const Look = (() => {
  const { el, fill, plural } = M;
  const SVG = "http://www.w3.org/2000/svg";

  // one colour per seat (white text on each reads at 4.5:1 or better) and one line pattern each, so
  // that no marker or line is told apart by colour alone
  const COLOURS = ["#b3261e", "#1d4ed8", "#166534", "#7e22ce", "#8a5a00", "#0f766e"];
  const DASHES = ["", "8 4", "2 3", "10 3 2 3", "4 4", "12 3 2 3 2 3"];
  const colour = (seat) => COLOURS[seat % COLOURS.length];
  const DEFAULT_TOP = 10; // the engine's WINNING_LEVEL; the state message says so as winning_level

  function svg(tag, attrs, ...children) {
    const e = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs || {})) if (v !== null && v !== undefined) e.setAttribute(k, String(v));
    for (const c of children.flat()) {
      if (c === null || c === undefined) continue;
      e.appendChild(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return e;
  }

  /** Short labels for the players' markers: the initials of their names (P1, LP, SL, DD), made
   * unique with the seat number when two would read the same. */
  function initials(players) {
    const short = players.map((p) => {
      const words = String(p.name || "?").split(/[\s\-_.]+/).filter(Boolean);
      if (!words.length) return "?";
      const first = words[0].charAt(0).toUpperCase();
      if (words.length === 1) return words[0].slice(0, 2).replace(/^./, first);
      return first + words[words.length - 1].charAt(0).toUpperCase();
    });
    return short.map((s, i) => (short.indexOf(s) !== short.lastIndexOf(s) ? s.charAt(0) + (i + 1) : s));
  }

  /** A player's marker: their initials on their seat's colour; the active player ringed, the dead
   * crossed out with ☠. */
  function marker(p, label, opts) {
    const o = opts || {};
    const cls = ["track-marker", o.active ? "active" : "", p.dead ? "dead" : "", o.me ? "me" : ""].filter(Boolean).join(" ");
    return el(
      "span",
      {
        class: cls,
        style: { "--seat-colour": colour(p.seat) },
        dataset: { seat: p.seat, level: p.level },
        title: o.title || null,
        "aria-hidden": o.hidden ? "true" : null,
      },
      label,
      p.dead ? el("span", { class: "skull", "aria-hidden": "true" }, "☠") : null
    );
  }

  /** A player's token beside their name in the players panel (the same as on the Level track). */
  function token(seat, players) {
    const p = (players || []).find((x) => x.seat === seat);
    if (!p) return null;
    return marker(p, initials(players)[players.indexOf(p)], { hidden: true });
  }

  // ------------------------------------------------------------------ the Level track
  /** The Level track under the header: cells 1 to the winning Level, every player's marker in the
   * cell of their Level; below it a legend that screen readers read as the list of Levels. */
  function renderTrack(v, msg, you) {
    const box = document.getElementById("level-track");
    if (!box) return;
    if (!v || !Array.isArray(v.players) || !v.players.length) {
      box.hidden = true;
      return;
    }
    box.hidden = false;
    const top = Number(msg && msg.winning_level) || DEFAULT_TOP;
    const labels = initials(v.players);
    const active = v.over ? -1 : v.active;
    const winners = new Set(v.winners || []);
    const describe = (p) =>
      [
        `${p.name}${p.seat === you ? " (you)" : ""}: Level ${p.level}`,
        p.seat === active ? "their turn" : null,
        p.dead ? "dead" : null,
        winners.has(p.seat) ? "winner" : null,
      ]
        .filter(Boolean)
        .join(", ");
    const cells = [];
    for (let lv = 1; lv <= top; lv++) {
      const here = v.players.filter((p) => Math.min(Math.max(p.level, 1), top) === lv);
      cells.push(
        el(
          "div",
          { class: `track-cell${lv === top ? " goal" : ""}${here.length ? " taken" : ""}`, dataset: { level: lv } },
          el("span", { class: "track-num" }, lv === top ? `${lv}★` : String(lv)),
          el(
            "span",
            { class: "track-markers" },
            here.map((p) =>
              marker(p, labels[v.players.indexOf(p)], { active: p.seat === active, me: p.seat === you, title: describe(p) })
            )
          )
        )
      );
    }
    fill(document.getElementById("level-track-board"), cells);
    fill(
      document.getElementById("level-track-list"),
      v.players.map((p) =>
        el(
          "li",
          { class: `track-entry${p.seat === active ? " active" : ""}${p.dead ? " dead" : ""}`, dataset: { seat: p.seat } },
          marker(p, labels[v.players.indexOf(p)], { active: p.seat === active, me: p.seat === you, hidden: true }),
          el("span", { class: "visually-hidden" }, describe(p)),
          el(
            "span",
            { class: "track-entry-text", "aria-hidden": "true" },
            el("span", { class: "track-name" }, p.name + (p.seat === you ? " (you)" : "")),
            " ",
            el("strong", { class: "track-level" }, String(p.level)),
            p.seat === active ? el("span", { class: "track-flag" }, " ▶") : null,
            p.dead ? el("span", { class: "track-flag" }, " ☠") : null,
            winners.has(p.seat) ? el("span", { class: "track-flag" }, " ★") : null
          )
        )
      )
    );
    document.getElementById("level-track-heading").textContent = `Level track: the first to Level ${top} wins`;
  }

  // ------------------------------------------------------------------ what was just played into a fight
  const fight = { version: null, fighter: null, keys: new Set(), fresh: new Set() };

  const ownText = (h) =>
    [...h.childNodes]
      .filter((n) => !(n.classList && n.classList.contains("strength")))
      .map((n) => n.textContent)
      .join("")
      .trim();
  const LEVEL_ROW = /^(Level \d+|Level does not count|minimum Level 1)$/;

  /** Every entry of the combat panel as [key, node]: fighters, monsters, the one-shot bonuses and
   * each card or bonus in their make-up (repeated entries numbered, so a second copy is new too). */
  function combatEntries(box) {
    const out = [];
    const seen = new Map();
    const add = (key, node) => {
      const k = seen.get(key) || 0;
      seen.set(key, k + 1);
      out.push([`${key}#${k}`, node]);
    };
    for (const block of box.querySelectorAll(".fighter, .monster")) {
      const h = block.querySelector("h4");
      const oneShots = block.classList.contains("one-shots");
      const who = oneShots ? "one-shots" : (block.classList.contains("monster") ? "M|" : "F|") + (h ? ownText(h) : "?");
      if (!oneShots) add(who, block);
      for (const row of block.querySelectorAll("tr")) {
        const th = row.querySelector("th");
        const label = th ? th.textContent.trim() : "";
        if (!LEVEL_ROW.test(label)) add(`${who}|${label}`, row);
      }
    }
    return out;
  }

  /** After the combat panel is drawn: what is new since the last state (a card played, a monster
   * joining, a helper) gets the class "fresh", a short highlight (a still outline when the reader
   * asked for reduced motion). A new fight highlights its monsters only. */
  function markCombat(box, c, version) {
    if (!box || !c || !Array.isArray(c.fighters) || !c.fighters.length) {
      fight.version = version;
      fight.fighter = null;
      fight.keys = new Set();
      fight.fresh = new Set();
      return;
    }
    const entries = combatEntries(box);
    if (version !== fight.version) {
      const sameFight = fight.fighter !== null && fight.fighter === c.fighters[0].player;
      fight.fresh = new Set(
        entries
          .map(([k]) => k)
          .filter((k) => (sameFight ? !fight.keys.has(k) : /^M\|[^|]*#\d+$/.test(k)))
      );
      for (const k of [...fight.fresh]) {
        const block = k.match(/^([FM]\|[^|]*)#\d+$/); // a new fighter or monster: the block alone, not each row
        if (block) for (const r of [...fight.fresh]) if (r.startsWith(block[1] + "|")) fight.fresh.delete(r);
      }
      fight.keys = new Set(entries.map(([k]) => k));
      fight.fighter = c.fighters[0].player;
      fight.version = version;
    }
    for (const [k, node] of entries) {
      if (!fight.fresh.has(k)) continue;
      node.classList.add("fresh");
      const target = node.tagName === "TR" ? node.querySelector("th") : node.querySelector("h4");
      if (target && !target.querySelector(".fresh-note")) {
        target.appendChild(el("span", { class: "fresh-note" }, " ✦ new"));
      }
    }
  }

  // ------------------------------------------------------------------ the end screen
  const niceStep = (n) => [1, 2, 5, 10, 20, 25, 50, 100, 200, 500].find((s) => n / s <= 8) || 1000;

  /** When each player's Level changed: [[turn, level], ...] starting at turn 0. */
  function changes(levels) {
    const out = [[0, levels[0]]];
    for (let t = 1; t < levels.length; t++) if (levels[t] !== levels[t - 1]) out.push([t, levels[t]]);
    return out;
  }

  /** The chart: one step line per player, Level (1 to the winning Level) against turns played; drawn
   * `width` units wide, which fitChart makes the pixels it is shown at, so its words stay readable. */
  function chart(story, labels, width) {
    const W = Math.round(Math.max(280, width || 640));
    const H = Math.round(Math.min(340, Math.max(220, W * 0.5)));
    const m = { l: 40, r: 40, t: 12, b: 42 };
    const top = story.winning_level || DEFAULT_TOP;
    const turns = Math.max(1, story.turns);
    const players = story.players;
    const x = (t) => m.l + (t / turns) * (W - m.l - m.r);
    const y = (lv) => H - m.b - ((lv - 1) / Math.max(1, top - 1)) * (H - m.t - m.b);
    const n = players.length;
    const off = (i) => (i - (n - 1) / 2) * 2.2; // lines at the same Level side by side, not hidden
    const grid = [];
    for (let lv = 1; lv <= top; lv++) {
      grid.push(svg("line", { class: lv === top ? "goal" : "grid", x1: m.l, x2: W - m.r, y1: y(lv), y2: y(lv) }));
      grid.push(svg("text", { class: "tick", x: m.l - 8, y: y(lv) + 4, "text-anchor": "end" }, lv === top ? `${lv}★` : lv));
    }
    const step = niceStep(turns * (W < 420 ? 1.6 : 1));
    for (let t = 0; t <= turns; t += step) {
      grid.push(svg("line", { class: "grid vertical", x1: x(t), x2: x(t), y1: m.t, y2: H - m.b }));
      grid.push(svg("text", { class: "tick", x: x(t), y: H - m.b + 16, "text-anchor": "middle" }, t));
    }
    const lines = players.map((p, i) => {
      const lv = p.levels;
      let d = `M ${x(0).toFixed(1)} ${(y(lv[0]) + off(i)).toFixed(1)}`;
      for (let t = 1; t < lv.length; t++) {
        d += ` H ${x(t).toFixed(1)}`;
        if (lv[t] !== lv[t - 1]) d += ` V ${(y(lv[t]) + off(i)).toFixed(1)}`;
      }
      const last = lv[lv.length - 1];
      return svg(
        "g",
        { class: "series", "data-seat": p.seat },
        svg("path", {
          d,
          fill: "none",
          stroke: colour(p.seat),
          "stroke-width": 2.5,
          "stroke-dasharray": DASHES[p.seat % DASHES.length] || null,
          "stroke-linejoin": "round",
        }),
        svg("circle", { cx: x(lv.length - 1), cy: y(last) + off(i), r: 4, fill: colour(p.seat) }),
        svg("text", { class: "end-label", x: x(lv.length - 1) + 6 + (i % 2) * 17, y: y(last) + off(i) + 4, fill: colour(p.seat) }, labels[i])
      );
    });
    const summary = players
      .map((p) => {
        const best = Math.max(...p.levels);
        const reached = p.levels.indexOf(best);
        return `${p.name} ended at Level ${p.level}${best > p.level ? `, after reaching Level ${best} by turn ${reached}` : ""}`;
      })
      .join("; ");
    return svg(
      "svg",
      { class: "level-chart", viewBox: `0 0 ${W} ${H}`, "data-width": W, role: "img", "aria-labelledby": "level-chart-title level-chart-desc", preserveAspectRatio: "xMidYMid meet" },
      svg("title", { id: "level-chart-title" }, `Each player's Level over the ${plural(story.turns, "turn")}`),
      svg("desc", { id: "level-chart-desc" }, summary + "."),
      grid,
      svg("line", { class: "axis", x1: m.l, x2: W - m.r, y1: H - m.b, y2: H - m.b }),
      svg("line", { class: "axis", x1: m.l, x2: m.l, y1: m.t, y2: H - m.b }),
      svg("text", { class: "axis-title", x: (m.l + W - m.r) / 2, y: H - 6, "text-anchor": "middle" }, "Turns played"),
      svg("text", { class: "axis-title", x: 12, y: (m.t + H - m.b) / 2, "text-anchor": "middle", transform: `rotate(-90 12 ${(m.t + H - m.b) / 2})` }, "Level"),
      lines
    );
  }

  function swatch(seat) {
    return svg(
      "svg",
      { class: "swatch", viewBox: "0 0 30 10", width: 30, height: 10, "aria-hidden": "true" },
      svg("line", { x1: 0, x2: 30, y1: 5, y2: 5, stroke: colour(seat), "stroke-width": 3, "stroke-dasharray": DASHES[seat % DASHES.length] || null })
    );
  }

  const FIGURES = [
    ["kills", "Monsters killed"],
    ["helped_kill", "Kills helping"],
    ["helped", "Helped others"],
    ["was_helped", "Was helped"],
    ["curses", "Curses suffered"],
    ["deaths", "Deaths"],
    ["treasures", "Treasures won"],
  ];

  /** One player's figures: a card with their Level and a short list of numbers. */
  function figures(p, label, won) {
    return el(
      "article",
      { class: `story-player${won ? " winner" : ""}`, dataset: { seat: p.seat } },
      el(
        "h3",
        null,
        marker({ seat: p.seat, level: p.level, dead: false }, label, { hidden: true }),
        " ",
        p.name,
        won ? el("span", { class: "badge winner" }, "★ winner") : null
      ),
      el("p", { class: "story-level" }, `Level ${p.level}`),
      el("dl", { class: "story-figures" }, FIGURES.map(([k, words]) => el("div", { dataset: { figure: k } }, el("dt", null, words), el("dd", null, String(p[k])))))
    );
  }

  let shown = null; // the story on the end screen: {story, labels}, for fitChart

  /** Redraw the chart at the width it is shown at (once the end screen is on the page, and when the
   * window changes size), so that its labels keep their size on a phone as on a laptop. */
  function fitChart() {
    const fig = document.querySelector("#end-screen .story-chart");
    const old = fig && fig.querySelector("svg.level-chart");
    if (!old || !shown || !fig.clientWidth) return;
    const cs = getComputedStyle(fig);
    const width = fig.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
    if (Math.abs(width - Number(old.dataset.width)) < 4) return;
    old.replaceWith(chart(shown.story, shown.labels, width));
  }
  window.addEventListener("resize", () => {
    clearTimeout(fitChart.timer);
    fitChart.timer = setTimeout(fitChart, 100);
  });

  /** The end screen's story: the chart with its legend and text, then each player's figures. */
  function endStory(story) {
    if (!story || !Array.isArray(story.players) || !story.players.length) return null;
    const labels = initials(story.players);
    shown = { story, labels };
    const winners = new Set(story.winners || []);
    const order = story.players
      .map((p, i) => [p, i])
      .sort(([a], [b]) => (winners.has(b.seat) - winners.has(a.seat)) || b.level - a.level || a.seat - b.seat);
    return el(
      "div",
      { class: "story" },
      el(
        "figure",
        { class: "story-chart" },
        el("figcaption", null, el("strong", null, "Levels turn by turn"), ` — ${plural(story.turns, "turn")}, first to Level ${story.winning_level || DEFAULT_TOP} wins`),
        chart(story, labels),
        el(
          "ul",
          { class: "chart-legend", "aria-label": "Legend" },
          story.players.map((p, i) => el("li", null, swatch(p.seat), ` ${labels[i]} `, el("strong", null, p.name), ` (Level ${p.level})`))
        ),
        el(
          "details",
          { class: "chart-text" },
          el("summary", null, "The chart in words"),
          el(
            "ul",
            null,
            story.players.map((p) =>
              el(
                "li",
                null,
                el("strong", null, p.name),
                ": ",
                changes(p.levels)
                  .map(([t, lv]) => (t === 0 ? `Level ${lv} at the start` : `${lv} after turn ${t}`))
                  .join(", "),
                "."
              )
            )
          )
        )
      ),
      el("h3", { class: "story-heading" }, "A few figures"),
      el("div", { class: "story-players" }, order.map(([p, i]) => figures(p, labels[i], winners.has(p.seat))))
    );
  }

  return { colour, initials, token, renderTrack, markCombat, endStory, fitChart };
})();
