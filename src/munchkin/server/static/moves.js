/* Munchkin table: the staged moves panel. The server sends each seat's moves as a small tree
 * ("menu"): the natural moves of the moment at the top, then groups (the card or power first, then
 * its target, then its options). One stage shows at a time; every leaf is one legal action whose
 * button carries the action's text in data-text. Plain ES2020, no build step. */
"use strict";

const Moves = (() => {
  const { el, fill, plural } = M;
  // the groups opened, by id; key: which tree (all moves, or a filter); moment: the question asked
  const S = { path: [], key: "", moment: "" };

  /** Every move under these entries. */
  function leaves(entries) {
    const out = [];
    for (const e of entries || []) {
      if (e.type === "move") out.push(e);
      else out.push(...leaves(e.entries));
    }
    return out;
  }

  /** The tree keeping only the moves `keep` accepts; empty groups go, a group of one becomes that one. */
  function prune(entries, keep) {
    const out = [];
    for (const e of entries || []) {
      if (e.type === "move") {
        if (keep(e)) out.push(e);
        continue;
      }
      const inner = prune(e.entries, keep);
      if (!inner.length) continue;
      if (inner.length === 1 && e.id !== "unlikely") {
        const only = inner[0];
        out.push(only.type === "move" ? { ...only, label: only.alone || only.text } : { ...only, label: `${e.label}: ${only.label}` });
      }
      else out.push({ ...e, entries: inner });
    }
    return out;
  }

  /** A menu from the flat action list (a server that sends no menu). */
  function flatMenu(actions) {
    return { title: "", entries: actions.map((a) => ({ type: "move", label: a.text, meaning: "", text: a.text, kind: a.kind, cards: a.cards })) };
  }

  /** The stages along the opened path that still exist: [{id, label, entries}], the top level first. */
  function stagesOf(entries) {
    const stages = [{ id: "", label: "All moves", entries }];
    const kept = [];
    for (const id of S.path) {
      const g = stages[stages.length - 1].entries.find((e) => e.type === "group" && e.id === id);
      if (!g) break;
      stages.push(g);
      kept.push(id);
    }
    S.path = kept;
    return stages;
  }

  /** A move's button: its words, and its meaning beside them; clicking sends its text. */
  function moveButton(m, opts, extraClass) {
    const b = el(
      "button",
      {
        type: "button",
        class: `action move kind-${m.kind}${extraClass ? " " + extraClass : ""}`,
        dataset: { text: m.text, kind: m.kind },
        disabled: opts.disabled,
        title: m.label !== m.text ? `Sends: ${m.text}` : null,
      },
      el("span", { class: "move-label" }, m.label),
      m.meaning ? el("span", { class: "move-meaning" }, m.meaning) : null
    );
    b.addEventListener("click", () => {
      S.path = []; // the next decision starts from its natural moves
      opts.onAct(m.text);
    });
    return b;
  }

  /** A group's button: opens its stage. */
  function groupButton(g, path, opts) {
    const n = leaves(g.entries).length;
    const b = el(
      "button",
      {
        type: "button",
        class: `menu-group${g.id === "unlikely" ? " unlikely" : ""}`,
        id: "open-" + (opts.key ? opts.key + "-" : "") + g.id.replace(/[^A-Za-z0-9_-]/g, "_"),
        dataset: { opens: g.id },
        "aria-label": `${g.label}: ${plural(n, "choice")}${g.meaning ? ", " + g.meaning : ""}`,
      },
      el("span", { class: "move-label" }, g.label, el("span", { class: "menu-count", "aria-hidden": "true" }, ` ${n} ›`)),
      g.meaning ? el("span", { class: "move-meaning", "aria-hidden": "true" }, g.meaning) : null
    );
    b.addEventListener("click", () => open([...path, g.id], opts));
    return b;
  }

  function open(path, opts) {
    S.path = path;
    opts.rerender();
    const stage = document.querySelector(`.menu-stage[data-depth="${path.length}"]:not([hidden])`);
    const first = stage && stage.querySelector(".menu-items button");
    if (first) first.focus();
  }

  /** One stage: a way back (below the top), then its choices. */
  function stageNode(stage, depth, stages, opts) {
    const path = stages.slice(1, depth + 1).map((s) => s.id);
    const items = stage.entries.map((e) =>
      e.type === "move" ? moveButton(e, opts, depth === 0 ? "top" : "") : groupButton(e, path, opts)
    );
    let nav = null;
    if (depth > 0) {
      const back = el(
        "button",
        { type: "button", class: "menu-back small", id: "back-" + (opts.key ? opts.key + "-" : "") + stage.id.replace(/[^A-Za-z0-9_-]/g, "_") },
        "‹ Back"
      );
      const from = stage.id;
      back.addEventListener("click", () => {
        S.path = path.slice(0, -1);
        opts.rerender();
        const opener = document.querySelector(`.menu-stage:not([hidden]) button[data-opens="${CSS.escape(from)}"]`);
        if (opener) opener.focus();
      });
      const crumbs = stages.slice(0, depth + 1).map((s, i) => {
        if (i === depth) return el("span", { class: "crumb here", "aria-current": "step" }, s.label);
        const c = el("button", { type: "button", class: "crumb link", dataset: { crumb: String(i) } }, s.label);
        c.addEventListener("click", () => open(path.slice(0, i), opts));
        return c;
      });
      nav = el(
        "nav",
        { class: "menu-nav", "aria-label": "Where you are in your moves" },
        back,
        el("span", { class: "crumbs" }, crumbs.flatMap((c, i) => (i ? [el("span", { class: "crumb-sep", "aria-hidden": "true" }, " › "), c] : [c])))
      );
    }
    return el(
      "div",
      {
        class: "menu-stage",
        role: "group",
        "aria-label": depth ? stage.label : "Your moves",
        dataset: { stage: stage.id, depth: String(depth), path: JSON.stringify(path) },
      },
      nav,
      depth && stage.meaning ? el("p", { class: "menu-stage-meaning" }, stage.meaning) : null,
      el("div", { class: "menu-items" }, items)
    );
  }

  /** Every group's stage, nested in the DOM order of the tree; only the opened one shows. */
  function allStages(entries, depth, shown, opts, trail) {
    const out = [];
    for (const e of entries) {
      if (e.type !== "group") continue;
      const stages = [...trail, e];
      const node = stageNode(e, depth, stages, opts);
      node.hidden = e !== shown;
      out.push(node, ...allStages(e.entries, depth + 1, shown, opts, stages));
    }
    return out;
  }

  /**
   * Draw the staged moves into `box`. opts: {menu, onAct(text), disabled, omit: texts not to show
   * (answered elsewhere), keep: a filter on moves or null, key: which tree (a new key starts at the
   * top), rerender()}. Returns the number of moves shown.
   */
  function render(box, opts) {
    const moment = opts.menu ? `${opts.menu.prompt || ""}|${opts.menu.title || ""}` : "";
    if (opts.key !== S.key || moment !== S.moment) {
      S.key = opts.key;
      S.moment = moment;
      S.path = [];
    }
    const omit = opts.omit || new Set();
    let entries = prune((opts.menu && opts.menu.entries) || [], (m) => !omit.has(m.text) && (!opts.keep || opts.keep(m)));
    if (opts.keep && leaves(entries).length <= 12) entries = leaves(entries).map((m) => ({ ...m, label: m.alone || m.text })); // a few: all at once
    const stages = stagesOf(entries);
    const shown = stages[stages.length - 1];
    const top = stageNode(stages[0], 0, stages.slice(0, 1), opts);
    top.hidden = stages.length > 1;
    const root = { id: "", label: "All moves", entries };
    fill(box, top, allStages(entries, 1, shown, opts, [root]));
    return leaves(entries).length;
  }

  /** Escape inside the panel goes one stage back. */
  document.addEventListener("keydown", (ev) => {
    if (ev.key !== "Escape" || !S.path.length) return;
    const back = document.querySelector(".menu-stage:not([hidden]) .menu-back");
    if (back && back.closest("#actions-panel") && back.closest("#actions-panel").contains(document.activeElement)) {
      ev.preventDefault();
      ev.stopImmediatePropagation();
      back.click();
    }
  }, true);

  return { render, leaves, prune, flatMenu, reset: () => (S.path = []) };
})();
