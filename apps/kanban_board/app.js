/* Flowboard: a small team kanban board. State lives in localStorage. */
(function () {
  "use strict";

  const defect = (id) => (window.WT_DEFECTS || []).includes(id);
  const SEED = window.FLOWBOARD_SEED;
  const STORAGE_KEY = "kanban_board.state";
  const COLUMNS = SEED.columns;
  const WIP_COLUMN = "progress";
  const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

  let state = load();
  let filter = "all";
  let editingKey = null;
  let dragKey = null;

  const $ = (sel) => document.querySelector(sel);
  const board = $("#board");
  const dialog = $("#card-dialog");
  const form = $("#card-form");

  function load() {
    try {
      const saved = JSON.parse(localStorage.getItem(STORAGE_KEY));
      if (saved && Array.isArray(saved.cards)) return saved;
    } catch (e) { /* fall back to the seed board */ }
    return { cards: SEED.cards.map((c) => ({ ...c })), nextKey: SEED.nextKey };
  }

  function save() {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(state));
  }

  function person(name) {
    return SEED.people.find((p) => p.name === name);
  }

  function formatDue(iso) {
    if (!iso) return "";
    const [y, m, d] = iso.split("-").map(Number);
    return `${MONTHS[m - 1]} ${d}, ${y}`;
  }

  function columnName(id) {
    return COLUMNS.find((c) => c.id === id).name;
  }

  function cardsIn(columnId) {
    return state.cards.filter((c) => c.column === columnId);
  }

  function matchesFilter(card) {
    if (filter === "all") return true;
    if (defect("filter-skips-done") && card.column === "done") return true;
    if (filter === "unassigned") return !card.assignee;
    return card.assignee === filter;
  }

  /* ---------- WIP limit ---------- */
  function wipBlocks(targetColumn, movingKey) {
    if (targetColumn !== WIP_COLUMN) return false;
    const count = cardsIn(WIP_COLUMN).filter((c) => c.key !== movingKey).length;
    return defect("wip-limit-off-by-one") ? count > SEED.wipLimit : count >= SEED.wipLimit;
  }

  function wipMessage() {
    return `In progress is at its WIP limit (${SEED.wipLimit} cards). Finish or move a card out first.`;
  }

  /* ---------- rendering ---------- */
  function el(tag, attrs = {}, children = []) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) {
      if (k === "class") node.className = v;
      else if (k === "text") node.textContent = v;
      else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, v);
    }
    for (const child of [].concat(children)) if (child) node.append(child);
    return node;
  }

  function renderCard(card) {
    const idx = COLUMNS.findIndex((c) => c.id === card.column);
    const titleId = `title-${card.key}`;
    const who = person(card.assignee);
    const avatar = who
      ? el("span", { class: "avatar sm", style: `--c:${who.color}`, "aria-hidden": "true", text: who.initials })
      : el("span", { class: "avatar sm empty", "aria-hidden": "true", text: "?" });
    const moves = el("div", { class: "moves" });
    if (idx > 0) {
      const prev = COLUMNS[idx - 1];
      moves.append(el("button", { type: "button", class: "icon-btn sm", "aria-label": `Move "${card.title}" to ${prev.name}`, title: `Move to ${prev.name}`, onclick: () => moveCard(card.key, prev.id) }, arrow("left")));
    }
    if (idx < COLUMNS.length - 1) {
      const next = COLUMNS[idx + 1];
      moves.append(el("button", { type: "button", class: "icon-btn sm", "aria-label": `Move "${card.title}" to ${next.name}`, title: `Move to ${next.name}`, onclick: () => moveCard(card.key, next.id) }, arrow("right")));
    }
    const li = el("li", { class: "card-item" }, [
      el("article", { class: `card prio-${card.priority.toLowerCase()}`, "aria-labelledby": titleId, draggable: "true", "data-key": card.key }, [
        el("div", { class: "card-top" }, [
          el("span", { class: "card-key", text: card.key }),
          el("span", { class: `prio-pill prio-${card.priority.toLowerCase()}`, text: `${card.priority} priority` }),
        ]),
        el("h3", { class: "card-title", id: titleId, text: card.title }),
        card.description ? el("p", { class: "card-desc", text: card.description }) : null,
        el("div", { class: "card-meta" }, [
          el("span", { class: "assignee" }, [avatar, el("span", { text: card.assignee || "Unassigned" })]),
          card.due ? el("span", { class: "due" }, [calendarIcon(), el("span", { text: `Due ${formatDue(card.due)}` })]) : el("span", { class: "due muted", text: "No due date" }),
        ]),
        el("div", { class: "card-actions" }, [
          el("button", { type: "button", class: "btn btn-ghost sm", "aria-label": `Edit "${card.title}"`, onclick: () => openEditor(card.key) }, "Edit"),
          moves,
        ]),
      ]),
    ]);
    const article = li.firstChild;
    article.addEventListener("dragstart", (e) => {
      dragKey = card.key;
      e.dataTransfer.setData("text/plain", card.key);
      article.classList.add("dragging");
    });
    article.addEventListener("dragend", () => article.classList.remove("dragging"));
    return li;
  }

  function svgIcon(size, markup) {
    const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    for (const [k, v] of [["width", size], ["height", size], ["viewBox", `0 0 ${size} ${size}`], ["aria-hidden", "true"]]) svg.setAttribute(k, v);
    svg.innerHTML = markup;
    return svg;
  }

  const ARROWS = {
    left: '<path d="M9 2L4 7l5 5" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"/>',
    right: '<path d="M5 2l5 5-5 5" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"/>',
  };
  const arrow = (dir) => svgIcon(14, ARROWS[dir]);
  const calendarIcon = () => svgIcon(12, '<rect x="1" y="2" width="10" height="9" rx="1.5" fill="none" stroke="currentColor"/><path d="M1 5h10M4 1v2M8 1v2" stroke="currentColor"/>');

  function render() {
    board.replaceChildren();
    for (const col of COLUMNS) {
      const visible = cardsIn(col.id).filter(matchesFilter);
      const headingId = `col-${col.id}`;
      const list = el("ul", { class: "card-list", "aria-labelledby": headingId });
      const hint = el("li", { class: "empty-state", text: filter === "all" ? "No cards yet. Drag a card here." : "No cards match this filter." });
      list.append(hint);
      if (visible.length) hint.hidden = true;
      visible.forEach((card) => list.append(renderCard(card)));
      const shown = defect("count-includes-hint") ? list.children.length : visible.length;
      const countLabel = `${shown} ${shown === 1 ? "card" : "cards"}`;
      const head = el("header", { class: "col-head" }, [
        el("h2", { id: headingId, text: col.name }),
        el("span", { class: "col-count", "data-testid": `count-${col.id}`, "aria-label": countLabel, title: countLabel, text: String(shown) }),
      ]);
      if (col.id === WIP_COLUMN) {
        const used = cardsIn(WIP_COLUMN).length;
        head.append(el("span", { class: `wip ${used >= SEED.wipLimit ? "full" : ""}`, "data-testid": "wip", text: `WIP ${used} / ${SEED.wipLimit}` }));
      }
      const section = el("section", { class: `column col-${col.id}`, "aria-labelledby": headingId, "data-column": col.id }, [head, list]);
      section.addEventListener("dragover", (e) => { e.preventDefault(); section.classList.add("drop-target"); });
      section.addEventListener("dragleave", () => section.classList.remove("drop-target"));
      section.addEventListener("drop", (e) => {
        e.preventDefault();
        section.classList.remove("drop-target");
        const key = e.dataTransfer.getData("text/plain") || dragKey;
        if (key) moveCard(key, col.id);
      });
      board.append(section);
    }
  }

  function renderFilter() {
    const select = $("#assignee-filter");
    const options = [["all", "All assignees"], ...SEED.people.map((p) => [p.name, p.name]), ["unassigned", "Unassigned"]];
    select.replaceChildren(...options.map(([v, t]) => el("option", { value: v, text: t })));
    select.value = filter;
  }

  /* ---------- actions ---------- */
  function moveCard(key, targetColumn) {
    const card = state.cards.find((c) => c.key === key);
    if (!card || card.column === targetColumn) return;
    if (wipBlocks(targetColumn, key)) {
      toast(wipMessage(), "warn");
      return;
    }
    card.column = targetColumn;
    if (!defect("move-not-persisted")) save();
    render();
    toast(`Moved "${card.title}" to ${columnName(targetColumn)}`);
  }

  function openEditor(key) {
    editingKey = key;
    const card = key ? state.cards.find((c) => c.key === key) : null;
    form.reset();
    clearErrors();
    $("#dialog-title").textContent = card ? `Edit card ${card.key}` : "New card";
    $("#save-btn").textContent = card ? "Save changes" : "Create card";
    $("#delete-card-btn").hidden = !card;
    $("#card-title").value = card ? card.title : "";
    $("#card-desc").value = card ? card.description : "";
    $("#card-assignee").value = card ? card.assignee : "";
    $("#card-priority").value = card ? card.priority : "Medium";
    $("#card-due").value = card ? card.due : "";
    $("#card-column").value = card ? card.column : "todo";
    dialog.showModal();
    $("#card-title").focus();
  }

  function closeEditor() {
    dialog.close();
    editingKey = null;
  }

  function clearErrors() {
    $("#title-error").textContent = "";
    $("#form-error").textContent = "";
    $("#card-title").removeAttribute("aria-invalid");
  }

  function submitCard(e) {
    e.preventDefault();
    clearErrors();
    const title = $("#card-title").value.trim();
    if (!title) {
      $("#title-error").textContent = "Give the card a title.";
      $("#card-title").setAttribute("aria-invalid", "true");
      $("#card-title").focus();
      return;
    }
    const values = {
      title,
      description: $("#card-desc").value.trim(),
      assignee: $("#card-assignee").value,
      priority: $("#card-priority").value,
      due: $("#card-due").value,
      column: $("#card-column").value,
    };
    const existing = editingKey ? state.cards.find((c) => c.key === editingKey) : null;
    if (values.column !== (existing && existing.column) && wipBlocks(values.column, editingKey)) {
      $("#form-error").textContent = wipMessage();
      return;
    }
    if (existing) {
      Object.assign(existing, values);
      toast(`Saved changes to ${existing.key}`);
    } else {
      const card = { key: `FB-${state.nextKey++}`, ...values };
      state.cards.push(card);
      toast(`Card ${card.key} created in ${columnName(card.column)}`);
    }
    save();
    closeEditor();
    render();
  }

  function deleteCard() {
    const card = state.cards.find((c) => c.key === editingKey);
    if (!card) return;
    state.cards = state.cards.filter((c) => c.key !== card.key);
    save();
    closeEditor();
    render();
    toast(`Deleted "${card.title}"`);
  }

  /* ---------- toasts ---------- */
  function toast(message, kind = "ok") {
    const region = $("#toasts");
    const node = el("div", { class: `toast ${kind}`, text: message });
    region.append(node);
    setTimeout(() => node.remove(), 3000);
  }

  /* ---------- wiring ---------- */
  function init() {
    $("#wip-limit-text").textContent = SEED.wipLimit;
    const people = [["", "Unassigned"], ...SEED.people.map((p) => [p.name, p.name])];
    $("#card-assignee").replaceChildren(...people.map(([v, t]) => el("option", { value: v, text: t })));
    $("#card-column").replaceChildren(...COLUMNS.map((c) => el("option", { value: c.id, text: c.name })));
    renderFilter();
    render();

    $("#assignee-filter").addEventListener("change", (e) => { filter = e.target.value; render(); });
    $("#new-card-btn").addEventListener("click", () => openEditor(null));
    $("#cancel-btn").addEventListener("click", closeEditor);
    if (!defect("close-button-broken")) $("#dialog-close").addEventListener("click", closeEditor);
    $("#delete-card-btn").addEventListener("click", deleteCard);
    dialog.addEventListener("close", () => { editingKey = null; });
    form.addEventListener("submit", submitCard);
  }

  init();
})();
