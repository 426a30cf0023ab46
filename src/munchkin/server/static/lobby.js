/* Munchkin lobby: create a table, list tables, keep this browser's join links. */
"use strict";

(() => {
  const { el, fill, api, plural, copyText, myTables, saveMyTables, absolute } = M;

  const BOT_NAMES = ["Grimgnaw", "Lady Pointy", "Sir Loots-a-Lot", "Dungeon Dave", "Elfrieda", "Bob the Bot"];
  const STRENGTH_LABEL = { random: "easy", heuristic: "strong" };
  const REFRESH_MS = 3000;

  const $ = (id) => document.getElementById(id);
  const errorBox = $("lobby-error");
  const form = $("create-form");
  const seatRows = $("seat-rows");
  const seatCount = $("seat-count");
  const createdBox = $("created-links");
  const tablesBox = $("tables");
  const tablesStatus = $("tables-status");

  let errorSource = null; // "create" | "list" | "sets": who put the message up

  function showError(msg, source) {
    errorSource = source;
    fill(errorBox, el("strong", null, "Problem: "), msg);
    errorBox.hidden = false;
  }

  function clearError(source) {
    if (source && errorSource !== source) return;
    errorSource = null;
    errorBox.hidden = true;
    errorBox.replaceChildren();
  }

  // ------------------------------------------------------------------ sets
  async function loadSets() {
    const box = $("sets");
    try {
      const sets = await api("/api/sets");
      $("sets-loading").remove();
      for (const s of sets) {
        const id = "set-" + s.id;
        box.appendChild(
          el(
            "div",
            { class: "check" },
            el("input", { type: "checkbox", id, name: "set", value: s.id, checked: s.id === "deluxe" || sets.length === 1 }),
            el("label", { for: id }, s.name || s.id)
          )
        );
      }
      clearError("sets");
    } catch (err) {
      $("sets-loading").textContent = "Could not load the card sets.";
      showError("could not load the card sets: " + err.message, "sets");
    }
  }

  // ------------------------------------------------------------------ seats
  function defaultName(i, kind) {
    return kind === "bot" ? BOT_NAMES[i % BOT_NAMES.length] : `Player ${i + 1}`;
  }

  function seatRow(i, kind) {
    const name = el("input", {
      type: "text",
      class: "seat-name",
      id: `seat-name-${i}`,
      name: `seat-name-${i}`,
      maxlength: 24,
      autocomplete: "off",
      required: true,
    });
    name.value = defaultName(i, kind);
    name.dataset.auto = "1";
    name.addEventListener("input", () => {
      name.dataset.auto = "";
    });

    const kindSel = el(
      "select",
      { class: "seat-kind", id: `seat-kind-${i}`, name: `seat-kind-${i}` },
      el("option", { value: "human" }, "person"),
      el("option", { value: "bot" }, "bot")
    );
    kindSel.value = kind;

    const strength = el(
      "select",
      { class: "seat-strength", id: `seat-strength-${i}`, name: `seat-strength-${i}` },
      el("option", { value: "random" }, "easy"),
      el("option", { value: "heuristic" }, "strong")
    );
    strength.value = "heuristic";

    const sex = el(
      "select",
      { class: "seat-sex", id: `seat-sex-${i}`, name: `seat-sex-${i}` },
      el("option", { value: "" }, "at random"),
      el("option", { value: "male" }, "male"),
      el("option", { value: "female" }, "female")
    );

    const house = el(
      "select",
      { class: "seat-house", id: `seat-house-${i}`, name: `seat-house-${i}` },
      el("option", { value: "" }, "at random"),
      ...["Gryffindor", "Hufflepuff", "Ravenclaw", "Slytherin"].map((h) => el("option", { value: h }, h))
    );

    const row = el(
      "li",
      { class: "seat-row", dataset: { seat: i, kind } },
      el("span", { class: "seat-label" }, `Seat ${i + 1}`),
      el("div", { class: "field" }, el("label", { for: name.id }, "Name"), name),
      el("div", { class: "field" }, el("label", { for: kindSel.id }, "Who plays"), kindSel),
      el("div", { class: "field" }, el("label", { for: sex.id }, "Character's sex"), sex),
      el(
        "div",
        { class: "field house-field" },
        el("label", { for: house.id }, "House ", el("span", { class: "hint" }, "(Harry Potter)")),
        house
      ),
      el(
        "div",
        { class: "field strength-field" },
        el("label", { for: strength.id }, "Bot strength ", el("span", { class: "hint" }, "(bots only)")),
        strength
      )
    );
    kindSel.addEventListener("change", () => {
      row.dataset.kind = kindSel.value;
      if (name.dataset.auto) name.value = defaultName(i, kindSel.value);
    });
    return row;
  }

  function syncSeatRows() {
    const n = Math.max(3, Math.min(6, parseInt(seatCount.value, 10) || 4));
    const rows = seatRows.querySelectorAll(".seat-row");
    for (let i = rows.length; i < n; i++) seatRows.appendChild(seatRow(i, i < 2 ? "human" : "bot"));
    for (let i = rows.length - 1; i >= n; i--) rows[i].remove();
  }

  // ------------------------------------------------------------------ create
  function readForm() {
    const problems = [];
    const name = $("table-name").value.trim();
    if (!name) problems.push("give the table a name");
    const sets = [...form.querySelectorAll('input[name="set"]:checked')].map((x) => x.value);
    if (!sets.length) problems.push("choose at least one card set");
    const seats = [...seatRows.querySelectorAll(".seat-row")].map((row) => ({
      name: row.querySelector(".seat-name").value.trim(),
      kind: row.querySelector(".seat-kind").value,
      strength: row.querySelector(".seat-strength").value,
      sex: row.querySelector(".seat-sex").value || null,
      house: (sets.includes("harry-potter") && row.querySelector(".seat-house").value) || null,
    }));
    if (seats.some((s) => !s.name)) problems.push("every seat needs a name");
    const lower = seats.map((s) => s.name.toLowerCase());
    if (new Set(lower).size !== lower.length) problems.push("seat names must all be different");
    const windowSeconds = parseFloat($("window-seconds").value);
    if (!(windowSeconds >= 0.5 && windowSeconds <= 30)) problems.push("the response window must be 0.5 to 30 seconds");
    const botDelay = parseFloat($("bot-delay").value);
    if (!(botDelay >= 0 && botDelay <= 5)) problems.push("the bot delay must be 0 to 5 seconds");
    const seedInput = $("seed");
    const seedText = seedInput.value.trim();
    let seed = null;
    if (seedInput.validity.badInput || (seedText && !(/^\d+$/.test(seedText) && Number(seedText) <= 2 ** 31))) {
      problems.push("the seed must be a whole number from 0 to 2147483648, or empty");
    } else if (seedText) {
      seed = Number(seedText);
    }
    return {
      problems,
      body: {
        name,
        sets,
        seats,
        options: { listen_at_the_door: $("opt-listen").checked, shared_victories: $("opt-shared").checked },
        window_seconds: windowSeconds,
        bot_delay: botDelay,
        seed,
      },
    };
  }

  async function onSubmit(ev) {
    ev.preventDefault();
    const { problems, body } = readForm();
    if (problems.length) {
      showError(problems.join("; ") + ".", "create");
      return;
    }
    const button = $("create-table");
    button.disabled = true;
    button.textContent = "Creating…";
    try {
      const res = await api("/api/tables", { json: body });
      clearError("create");
      const entry = {
        id: res.table.id,
        name: res.table.name,
        created: res.table.created || new Date().toISOString(),
        links: (res.links || []).map((l) => ({ seat: l.seat, name: l.name, url: absolute(l.url) })),
        watch: absolute(res.watch || `/table/${res.table.id}`),
      };
      saveMyTables([entry, ...myTables().filter((t) => t.id !== entry.id)]);
      showCreated(entry);
      renderMyTables();
      refreshTables();
    } catch (err) {
      showError("could not create the table: " + err.message, "create");
    } finally {
      button.disabled = false;
      button.textContent = "Create table";
    }
  }

  function linkRow(label, url, linkAttrs) {
    const input = el("input", { type: "text", readonly: true, class: "link-text", "aria-label": `${label}: link` });
    input.value = url;
    input.addEventListener("focus", () => input.select());
    const status = el("span", { class: "copy-status", "aria-live": "polite" });
    const copy = el("button", { type: "button", class: "copy" }, "Copy");
    copy.addEventListener("click", async () => {
      const ok = await copyText(url);
      status.textContent = ok ? "✓ copied" : "select the link and copy it";
      if (!ok) input.select();
      setTimeout(() => (status.textContent = ""), 2500);
    });
    return el(
      "li",
      { class: "link-row" },
      el("span", { class: "link-label" }, label),
      input,
      el("span", { class: "link-buttons" }, copy, el("a", { href: url, ...linkAttrs }, "Open"), status)
    );
  }

  function linkList(entry) {
    return el(
      "ul",
      { class: "links" },
      entry.links.map((l) =>
        linkRow(`Seat ${l.seat + 1} — ${l.name}`, l.url, {
          class: "join-link button-link",
          dataset: { seat: l.seat },
          "aria-label": `Open ${l.name}'s seat`,
        })
      ),
      linkRow("Watch (spectators)", entry.watch, { class: "watch-link button-link", "aria-label": "Open the watch page" })
    );
  }

  function showCreated(entry) {
    fill(
      createdBox,
      el("h3", null, "✓ Table “", entry.name, "” is ready"),
      el(
        "p",
        null,
        entry.links.length
          ? "Send each person their own link: it is their secret seat, so keep it private. Everyone else can watch."
          : "Only bots at this table: watch them play."
      ),
      linkList(entry),
      el("p", { class: "hint" }, "These links are saved under “Your tables” in this browser.")
    );
    createdBox.hidden = false;
    createdBox.scrollIntoView({ behavior: "smooth", block: "nearest" });
  }

  // ------------------------------------------------------------------ your tables
  function renderMyTables() {
    const list = myTables();
    const section = $("my-tables-section");
    section.hidden = list.length === 0;
    fill(
      $("my-tables"),
      list.map((t) => {
        const forget = el("button", { type: "button", class: "small" }, "Forget");
        forget.addEventListener("click", () => {
          saveMyTables(myTables().filter((x) => x.id !== t.id));
          renderMyTables();
          lastTablesJson = ""; // re-render the list without this table's links
          refreshTables();
        });
        return el(
          "li",
          { class: "my-table", dataset: { tableId: t.id } },
          el(
            "details",
            null,
            el("summary", null, el("strong", null, t.name), " ", el("span", { class: "hint" }, `(${formatTime(t.created)})`)),
            linkList(t),
            forget
          )
        );
      })
    );
  }

  // ------------------------------------------------------------------ table list
  function formatTime(v) {
    if (v === undefined || v === null || v === "") return "";
    const d = typeof v === "number" ? new Date(v < 1e12 ? v * 1000 : v) : new Date(v);
    if (isNaN(d.getTime())) return String(v);
    return d.toLocaleString([], { dateStyle: "medium", timeStyle: "short" });
  }

  function seatItem(s) {
    const bits = [];
    if (s.kind === "bot") bits.push(`bot (${STRENGTH_LABEL[s.strength] || s.strength || "?"})`);
    else {
      bits.push("person");
      bits.push(s.claimed ? "seat taken" : "FREE SEAT");
      bits.push(s.connected ? "● online" : "○ offline");
    }
    return el(
      "li",
      { class: "seat" + (s.kind === "human" && !s.claimed ? " free" : "") },
      el("span", { class: "seat-who" }, s.name),
      " — ",
      bits.join(", ")
    );
  }

  function tableRow(t, mine) {
    const free = (t.seats || []).filter((s) => s.kind === "human" && !s.claimed);
    const over = t.status !== "playing";
    const status =
      t.status === "over"
        ? `✓ Game over${t.winners && t.winners.length ? ": " + t.winners.join(" and ") + " won" : ", no winner"}`
        : t.status === "playing"
          ? `▶ Playing, turn ${t.turn ?? "?"}`
          : `■ ${String(t.status || "unknown").replace(/^./, (c) => c.toUpperCase())}`;
    const watching = typeof t.spectators === "number" && t.spectators > 0 ? ` · ${t.spectators} watching` : "";
    const myLinks = mine ? mine.links : [];
    return el(
      "article",
      { class: "table-row" + (free.length && !over ? " open" : "") + (over ? " over" : ""), dataset: { tableId: t.id } },
      el(
        "div",
        { class: "table-head" },
        el("h3", null, t.name),
        free.length && !over ? el("span", { class: "badge open-badge" }, `OPEN — ${plural(free.length, "free seat")}`) : null
      ),
      el("p", { class: "table-meta" }, status, " · sets: ", (t.sets || []).join(", ") || "?", watching),
      el("ul", { class: "seat-list" }, (t.seats || []).map(seatItem)),
      el(
        "p",
        { class: "table-links" },
        el("a", { href: `/table/${encodeURIComponent(t.id)}`, class: "watch button-link" }, "Watch"),
        myLinks.map((l) =>
          el(
            "a",
            { href: l.url, class: "button-link play-link", dataset: { seat: l.seat } },
            `Play as ${l.name}`
          )
        )
      )
    );
  }

  let lastTablesJson = null;
  let refreshing = false;

  async function refreshTables() {
    if (refreshing) return;
    refreshing = true;
    try {
      const tables = await api("/api/tables");
      const json = JSON.stringify(tables);
      clearError("list");
      if (json !== lastTablesJson) {
        lastTablesJson = json;
        const mine = new Map(myTables().map((t) => [t.id, t]));
        fill(tablesBox, tables.map((t) => tableRow(t, mine.get(t.id))));
        const open = tables.filter((t) => t.status === "playing" && (t.seats || []).some((s) => s.kind === "human" && !s.claimed));
        tablesStatus.textContent = tables.length
          ? `${plural(tables.length, "table")}, ${open.length} open. Updated every few seconds.`
          : "No tables yet: create one above.";
      }
    } catch (err) {
      tablesStatus.textContent = "Could not load the tables; trying again…";
      if (errorSource === null || errorSource === "list") showError("could not load the tables: " + err.message, "list");
    } finally {
      refreshing = false;
    }
  }

  // ------------------------------------------------------------------ start
  seatCount.addEventListener("change", syncSeatRows);
  seatCount.addEventListener("input", syncSeatRows);
  form.addEventListener("submit", onSubmit);
  $("table-name").value = `${["Dungeon", "Crypt", "Lair", "Tavern"][Math.floor(Math.random() * 4)]} of ${
    ["Doom", "Loot", "Pointy Hats", "Bad Stuff"][Math.floor(Math.random() * 4)]
  }`;
  syncSeatRows();
  renderMyTables();
  loadSets();
  refreshTables();
  setInterval(refreshTables, REFRESH_MS);
})();
