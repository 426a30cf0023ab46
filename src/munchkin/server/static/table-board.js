/* Munchkin table page: the board. Your hand, every player's cards on the table (Race, Class, Items, Sidekicks,
   Curses...) and the decks and discard piles, each card a button that opens its face. Plain ES2020, no build step. */
"use strict";

const Board = (() => {
  const { el, fill, kindLabel, deckLabel, plural } = M;
  const { $, S, view, mySeat, isSpectator, usableCards, beforeDeal, Faces } = Page;

  // ---------------- cards
  /** A card's small kind icon (a Steed's own), with its word as the text alternative; null without the faces. */
  function kindIcon(c) {
    if (!Faces) return null;
    const f = Faces.face(c.name);
    return f ? Faces.icon(f.icon, f.kind_word) : Faces.icon(c.steed ? "steed" : c.kind, kindLabel(c.kind, c.word));
  }

  /** A hand tile: name, kind with its icon, and the figures that matter at a glance (Level, bonus, slot). */
  function cardBody(c, extra) {
    const icon = kindIcon(c);
    if (icon) {
      icon.removeAttribute("role"); // the kind is written beside it
      icon.removeAttribute("aria-label");
      icon.setAttribute("aria-hidden", "true");
    }
    return [
      el("span", { class: "card-name" }, c.name),
      el("span", { class: "card-kind" }, icon, [deckLabel(c.deck), kindLabel(c.kind, c.word)].filter(Boolean).join(" · ")),
      Faces ? Faces.glanceNodes(c.name) : null,
      extra || null,
    ];
  }

  /** A card on the table or in a discard pile: a button that opens its face (cardface.js), from which
   * "Moves with this card" shows the moves that use it. */
  function tableCard(c, usable, note) {
    if (!c) return null;
    const selected = S.filter && S.filter.type === "card" && S.filter.id === c.id;
    const b = el(
      "button",
      {
        type: "button",
        class: `table-card deck-${c.deck || "none"} kind-${c.kind}${usable.has(c.id) ? " usable" : ""}${selected ? " selected" : ""}`,
        dataset: { cardId: c.id, card: c.name }, // data-card: hover, focus or tap opens its face (cardface.js)
        "aria-haspopup": "dialog",
      },
      kindIcon(c),
      el("span", { class: "card-name" }, c.name),
      c.steed ? el("span", { class: "card-note steed" }, " (Steed)") : null,
      note ? el("span", { class: "card-note" }, note) : null,
      usable.has(c.id) ? el("span", { class: "usable-mark", "aria-hidden": "true" }, " ✓") : null,
      usable.has(c.id) ? el("span", { class: "visually-hidden" }, ": you can use it now") : null,
      selected ? el("span", { class: "visually-hidden" }, " (your moves show only those with it)") : null
    );
    return b;
  }

  function renderHand() {
    const v = view();
    const panel = $("hand-panel");
    if (isSpectator() || !v) {
      panel.hidden = isSpectator() || beforeDeal();
      return;
    }
    panel.hidden = false;
    const hand = v.hand || [];
    const usable = usableCards();
    $("hand-count").textContent = `(${plural(hand.length, "card")})`;
    if (!hand.length) {
      fill($("hand"), el("p", { class: "note" }, "Your hand is empty."));
      return;
    }
    fill(
      $("hand"),
      hand.map((c) => {
        const selected = S.filter && S.filter.type === "card" && S.filter.id === c.id;
        const can = usable.has(c.id);
        const b = el(
          "button",
          {
            type: "button",
            class: `hand-card deck-${c.deck || "none"} kind-${c.kind}${can ? " usable" : ""}${selected ? " selected" : ""}`,
            dataset: { cardId: c.id, card: c.name }, // a click or tap opens its face (cardface.js)
            "aria-haspopup": "dialog",
          },
          cardBody(c, el("span", { class: "card-state" }, selected ? "▶ selected" : can ? "✓ can use now" : "not now"))
        );
        return b;
      })
    );
  }

  // ---------------- players
  function chips(cards, usable, label, note) {
    if (!cards || !cards.length) return null;
    return el("div", { class: "row" }, rowLabel(label), el("span", { class: "chips" }, cards.map((c) => tableCard(c, usable, note))));
  }

  /** A row's label; a card it names ("Races (Half-Breed)", "Cheat! on") opens that card's face. */
  function rowLabel(label) {
    return el("span", { class: "row-label" }, Faces ? Faces.linkify(label, true) : label);
  }

  // a Race, Class or Role row: its cards, or a word when there are none
  function statRow(cards, usable, label, none) {
    return el(
      "div",
      { class: "row" },
      rowLabel(label),
      cards && cards.length
        ? el("span", { class: "chips" }, cards.map((c) => tableCard(c, usable)))
        : el("span", { class: "plain" }, none)
    );
  }

  function renderPlayers() {
    const v = view();
    if (!v) return;
    if (typeof Look !== "undefined") Look.renderTrack(v, S.msg, mySeat());
    const usable = usableCards();
    const seats = new Map(((S.msg && S.msg.seats) || []).map((s) => [s.seat, s]));
    const toAct = new Set(v.to_act || []);
    const winners = new Set(v.winners || []);
    fill(
      $("players"),
      (v.players || []).map((p) => {
        const s = seats.get(p.seat) || {};
        const me = p.seat === mySeat();
        const active = p.seat === v.active && !v.over;
        const badges = [
          me ? el("span", { class: "badge you" }, "YOU") : null,
          active ? el("span", { class: "badge turn" }, "▶ their turn") : null,
          toAct.has(p.seat) && !v.over ? el("span", { class: "badge acting" }, "⚑ must act") : null,
          s.stand_in && !v.over ? el("span", { class: "badge stand-in" }, "bot standing in") : null,
          p.dead ? el("span", { class: "badge dead" }, "☠ dead") : null,
          winners.has(p.seat) ? el("span", { class: "badge winner" }, "★ winner") : null,
        ];
        const who =
          s.kind === "bot"
            ? "bot"
            : s.kind === "human"
              ? s.stand_in
                ? s.joined === false
                  ? "person, ○ not joined yet — a bot is playing until they join"
                  : "person, ○ away — a bot is playing for them"
                : s.connected
                  ? "person, ● online"
                  : s.joined === false
                    ? "person, ○ not joined yet"
                    : "person, ○ offline"
              : "";
        const races = p.races && p.races.length ? p.races : null;
        const classes = p.classes && p.classes.length ? p.classes : null;
        return el(
          "article",
          {
            class: `player${me ? " me" : ""}${active ? " active" : ""}${toAct.has(p.seat) ? " acting" : ""}${p.dead ? " dead" : ""}`,
            dataset: { seat: p.seat },
            "aria-label": `${p.name}${me ? " (you)" : ""}`,
          },
          el(
            "header",
            null,
            el("h3", null, typeof Look !== "undefined" ? Look.token(p.seat, v.players) : null, p.name),
            el("span", { class: "badges" }, badges)
          ),
          el(
            "p",
            { class: "stats" },
            el("span", { class: "level" }, `Level ${p.level}`),
            el("span", null, p.sex === "male" ? "♂ male" : p.sex === "female" ? "♀ female" : p.sex || ""),
            p.house ? el("span", { class: "house" }, Faces ? Faces.ref(p.house, p.house, true) : p.house) : null,
            el("span", null, `${plural(p.hand_size, "card")} in hand`),
            who
              ? el(
                  "span",
                  {
                    class: "who" + (s.stand_in ? " stand-in" : ""),
                    title: s.stand_in
                      ? s.joined === false
                        ? `${p.name} has not joined yet: a bot makes their moves until they join`
                        : `${p.name} is away: a bot makes their moves until they come back`
                      : null,
                  },
                  s.stand_in ? el("span", { "aria-hidden": "true" }, "⚙ ") : null,
                  who
                )
              : null
          ),
          v.races_in_game === false && !races
            ? null
            : statRow(races, usable, p.half_breed ? "Races (Half-Breed)" : "Race", "Human"),
          v.classes_in_game === false && !classes
            ? null
            : statRow(classes, usable, p.super_munchkin ? "Classes (Super Munchkin)" : "Class", "none"),
          v.houses_in_game || (p.roles || []).length
            ? statRow(p.roles, usable, p.dual_role ? "Roles (Dual Role)" : "Role", "none")
            : null,
          (p.proficiencies || []).length
            ? el(
                "div",
                { class: "row" },
                el(
                  "span",
                  { class: "row-label" },
                  `Proficiencies (Rank ${p.proficiencies.reduce((t, c) => t + c.rank, 0)} of ${p.level})`
                ),
                el(
                  "span",
                  { class: "chips" },
                  p.proficiencies.map((c) => [tableCard(c, usable, ` (Rank ${c.rank})`), " "])
                )
              )
            : null,
          chips(p.equipped, usable, "Equipped"),
          chips(p.carried, usable, "Carried"),
          (p.sidekicks || []).length
            ? el(
                "div",
                { class: "row" },
                el("span", { class: "row-label" }, (p.sidekicks[0].word || "Sidekick") + (p.sidekicks.length > 1 ? "s" : "")),
                el(
                  "span",
                  { class: "chips" },
                  p.sidekicks.map((k) => [
                    tableCard(k, usable, k.sex === "female" ? " ♀" : k.sex === "male" ? " ♂" : null),
                    k.carrying ? [" carrying ", tableCard(k.carrying, usable)] : null,
                    " ",
                  ])
                )
              )
            : null,
          (p.item_enhancers || []).length
            ? el(
                "div",
                { class: "row" },
                el("span", { class: "row-label" }, "Item Enhancers"),
                el(
                  "span",
                  { class: "chips" },
                  p.item_enhancers.map((e) => [tableCard(e, usable), " on ", tableCard(e.on, usable), " "])
                )
              )
            : null,
          p.cheats && p.cheats.length ? chips(p.cheats, usable, "Cheat! on") : null,
          chips(p.curses, usable, "Curses & Traps")
        );
      })
    );
  }

  // ---------------- piles
  function renderPiles(openDetails) {
    const v = view();
    if (!v) return;
    const usable = usableCards();
    const pile = (key, title, cards) => {
      const top = cards.length ? cards[cards.length - 1] : null;
      const k = "pile-" + key;
      return el(
        "div",
        { class: "pile" },
        el(
          "p",
          null,
          el("span", null, el("strong", null, title), `: ${plural(cards.length, "card")}`, top ? "; on top:" : ""),
          top ? tableCard(top, usable) : null
        ),
        cards.length > 1
          ? el(
              "details",
              { "data-key": k, open: openDetails.has(k) },
              el("summary", null, `All ${cards.length}, newest first`),
              el("ol", { class: "pile-list" }, cards.slice().reverse().map((c) => el("li", null, tableCard(c, usable), " ", el("span", { class: "card-kind" }, kindLabel(c.kind, c.word)))))
            )
          : null
      );
    };
    fill(
      $("piles"),
      el(
        "p",
        { class: "decks" },
        el("span", { class: "deck deck-door" }, el("strong", null, "Door deck"), `: ${plural(v.door_deck, "card")}`),
        el("span", { class: "deck deck-treasure" }, el("strong", null, "Treasure deck"), `: ${plural(v.treasure_deck, "card")}`)
      ),
      pile("door", "Door discards", v.door_discard || []),
      pile("treasure", "Treasure discards", v.treasure_discard || [])
    );
  }

  return { kindIcon, tableCard, renderHand, renderPlayers, renderPiles };
})();
