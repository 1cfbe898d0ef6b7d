/* Pocketwise: a personal budget tracker kept in localStorage. */
(function () {
  "use strict";

  const defect = (id) => (window.WT_DEFECTS || []).includes(id);
  const STORE_KEY = "budget_tracker.v1";

  const $ = (sel) => document.querySelector(sel);
  const pad = (n) => String(n).padStart(2, "0");
  const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });
  const expenseFormat = new Intl.NumberFormat("en-US", {
    style: "currency",
    currency: defect("euro-sign-on-expenses") ? "EUR" : "USD",
  });

  function monthKey(date) {
    return `${date.getFullYear()}-${pad(date.getMonth() + 1)}`;
  }
  function isoDay(date) {
    return `${monthKey(date)}-${pad(date.getDate())}`;
  }
  function monthOffset(offset, day) {
    const now = new Date();
    return isoDay(new Date(now.getFullYear(), now.getMonth() - offset, day));
  }
  function monthLabel(key) {
    const [y, m] = key.split("-").map(Number);
    return new Date(y, m - 1, 1).toLocaleDateString("en-US", { month: "long", year: "numeric" });
  }
  function dayLabel(iso) {
    const [y, m, d] = iso.split("-").map(Number);
    return new Date(y, m - 1, d).toLocaleDateString("en-US", { month: "short", day: "numeric", year: "numeric" });
  }
  function uid() {
    return Math.random().toString(36).slice(2, 10);
  }

  const DEFAULT_CATEGORIES = [
    { name: "Housing", type: "expense" },
    { name: "Groceries", type: "expense" },
    { name: "Dining out", type: "expense" },
    { name: "Transport", type: "expense" },
    { name: "Utilities", type: "expense" },
    { name: "Entertainment", type: "expense" },
    { name: "Health", type: "expense" },
    { name: "Gifts", type: "expense" },
    { name: "Salary", type: "income" },
    { name: "Freelance", type: "income" },
    { name: "Interest", type: "income" },
  ];

  function seedTransactions() {
    const rows = [
      [0, 1, "income", "Salary", "Monthly salary – Brightline Studio", 4250],
      [0, 1, "expense", "Housing", "Rent – Maple Court Apt 4B", 1480],
      [0, 3, "expense", "Groceries", "Trader Joe's", 86.42],
      [0, 5, "expense", "Transport", "Monthly transit pass", 98],
      [0, 7, "expense", "Dining out", "Dinner at Nonna's Kitchen", 54.3],
      [0, 9, "expense", "Utilities", "City Power & Light", 72.15],
      [0, 10, "expense", "Groceries", "Whole Foods Market", 112.87],
      [0, 12, "expense", "Entertainment", "Cinema tickets", 28],
      [1, 1, "income", "Salary", "Monthly salary – Brightline Studio", 4250],
      [1, 1, "expense", "Housing", "Rent – Maple Court Apt 4B", 1480],
      [1, 4, "expense", "Groceries", "Costco run", 164.2],
      [1, 8, "income", "Freelance", "Logo design for Fernway Bakery", 600],
      [1, 11, "expense", "Utilities", "Internet – FiberNet", 59.99],
      [1, 15, "expense", "Dining out", "Lunch with Sam", 23.75],
      [1, 20, "expense", "Groceries", "Farmers market", 41.6],
      [1, 24, "expense", "Transport", "Gas – Shell", 47.1],
      [2, 1, "income", "Salary", "Monthly salary – Brightline Studio", 4250],
      [2, 1, "expense", "Housing", "Rent – Maple Court Apt 4B", 1480],
      [2, 6, "expense", "Groceries", "Trader Joe's", 92.35],
      [2, 14, "expense", "Health", "Pharmacy – CVS", 18.49],
      [2, 18, "expense", "Entertainment", "Concert tickets", 120],
      [2, 28, "income", "Interest", "Savings account interest", 12.4],
    ];
    return rows.map(([off, day, type, category, description, amount]) => ({
      id: uid(), date: monthOffset(off, day), type, category, description, amount, note: "",
    }));
  }

  function load() {
    try {
      const raw = localStorage.getItem(STORE_KEY);
      if (raw) return JSON.parse(raw);
    } catch (e) { /* fall back to sample data */ }
    return { transactions: seedTransactions(), categories: DEFAULT_CATEGORIES.slice() };
  }

  const state = load();
  let selectedMonth = monthKey(new Date());
  let editingId = null;
  let pendingDeleteId = null;

  function save() {
    localStorage.setItem(STORE_KEY, JSON.stringify(state));
  }

  /* ---------- toast ---------- */
  let toastTimer = null;
  function toast(message) {
    const el = $("#toast");
    el.textContent = message;
    el.classList.add("show");
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => el.classList.remove("show"), 3000);
  }

  /* ---------- rendering ---------- */
  function monthsAvailable() {
    const keys = new Set(state.transactions.map((t) => t.date.slice(0, 7)));
    keys.add(monthKey(new Date()));
    keys.add(selectedMonth);
    return Array.from(keys).sort().reverse();
  }

  function renderMonthSelect() {
    const sel = $("#month-select");
    sel.innerHTML = monthsAvailable().map((k) => `<option value="${k}">${monthLabel(k)}</option>`).join("");
    sel.value = selectedMonth;
  }

  function renderCategorySelects() {
    const type = document.querySelector('input[name="type"]:checked').value;
    const formSel = $("#tx-category");
    const current = formSel.value;
    formSel.innerHTML = state.categories
      .filter((c) => c.type === type)
      .map((c) => `<option>${escapeHtml(c.name)}</option>`)
      .join("");
    if (Array.from(formSel.options).some((o) => o.value === current)) formSel.value = current;

    const filterSel = $("#filter-category");
    const currentFilter = filterSel.value || "all";
    filterSel.innerHTML = `<option value="all">All categories</option>` +
      state.categories.map((c) => `<option>${escapeHtml(c.name)}</option>`).join("");
    filterSel.value = Array.from(filterSel.options).some((o) => o.value === currentFilter) ? currentFilter : "all";

    $("#category-list").innerHTML = state.categories
      .map((c) => `<li class="${c.type}">${escapeHtml(c.name)}</li>`)
      .join("");
  }

  function escapeHtml(s) {
    return String(s).replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[ch]));
  }

  function monthTransactions() {
    return state.transactions.filter((t) => t.date.slice(0, 7) === selectedMonth);
  }

  function visibleTransactions() {
    const category = $("#filter-category").value;
    const type = $("#filter-type").value;
    let rows = monthTransactions();
    if (category !== "all") {
      const pool = defect("category-filter-ignores-month") ? state.transactions : rows;
      rows = pool.filter((t) => t.category === category);
    }
    if (type !== "all") rows = rows.filter((t) => t.type === type);
    return rows.slice().sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0));
  }

  function renderSummary() {
    const rows = monthTransactions();
    const income = rows.filter((t) => t.type === "income").reduce((s, t) => s + t.amount, 0);
    const expenses = rows.filter((t) => t.type === "expense").reduce((s, t) => s + t.amount, 0);
    const balance = income - expenses;
    $("#sum-income").textContent = usd.format(income);
    $("#sum-expenses").textContent = expenseFormat.format(expenses);
    const bal = $("#sum-balance");
    bal.textContent = usd.format(balance);
    bal.classList.toggle("negative", balance < 0);
  }

  function renderTable() {
    const rows = visibleTransactions();
    $("#tx-month-label").textContent = `· ${monthLabel(selectedMonth)}`;
    $("#tx-body").innerHTML = rows.map((t) => {
      const sign = t.type === "income" ? "+" : "−";
      const desc = escapeHtml(t.description);
      return `<tr>
        <td>${dayLabel(t.date)}</td>
        <td>${desc}${t.note ? `<span class="tx-note">${escapeHtml(t.note)}</span>` : ""}</td>
        <td><span class="cat-pill">${escapeHtml(t.category)}</span></td>
        <td class="num amount-${t.type}">${sign}${usd.format(Math.abs(t.amount))}</td>
        <td class="actions">
          <button type="button" class="btn-link" data-edit="${t.id}" aria-label="Edit ${desc}">Edit</button>
          <button type="button" class="btn-link danger" data-delete="${t.id}" aria-label="Delete ${desc}">Delete</button>
        </td>
      </tr>`;
    }).join("");
    $("#tx-empty").hidden = rows.length > 0;
    document.querySelector(".tx-table").hidden = rows.length === 0;
  }

  function renderBreakdown() {
    const totals = new Map();
    for (const t of monthTransactions()) {
      if (t.type !== "expense") continue;
      totals.set(t.category, (totals.get(t.category) || 0) + t.amount);
    }
    const entries = Array.from(totals.entries()).sort((a, b) => b[1] - a[1]);
    const sum = entries.reduce((s, [, v]) => s + v, 0);
    $("#breakdown").innerHTML = entries.map(([name, value]) => {
      const pct = sum ? Math.round((value / sum) * 100) : 0;
      return `<li>
        <span class="cat-name">${escapeHtml(name)}</span>
        <span class="bar" aria-hidden="true"><span style="width:${pct}%"></span></span>
        <span class="figure">${usd.format(value)} <span class="muted">(${pct}%)</span></span>
      </li>`;
    }).join("");
    $("#breakdown-empty").hidden = entries.length > 0;
  }

  function render() {
    renderMonthSelect();
    renderSummary();
    renderTable();
    renderBreakdown();
  }

  /* ---------- form ---------- */
  function setError(field, message) {
    const input = $(`#tx-${field}`);
    $(`#err-${field}`).textContent = message || "";
    if (message) input.setAttribute("aria-invalid", "true");
    else input.removeAttribute("aria-invalid");
  }

  function readForm() {
    const description = $("#tx-description").value.trim();
    const amountRaw = $("#tx-amount").value.trim();
    const amount = Number(amountRaw);
    const date = $("#tx-date").value;
    let ok = true;
    setError("description", "");
    setError("amount", "");
    setError("date", "");
    if (!description) { setError("description", "Description is required."); ok = false; }
    const amountValid = defect("negative-amount-accepted")
      ? amountRaw !== "" && !Number.isNaN(amount)
      : amountRaw !== "" && Number.isFinite(amount) && amount > 0;
    if (!amountValid) { setError("amount", "Enter an amount greater than zero."); ok = false; }
    if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) { setError("date", "Pick a date."); ok = false; }
    if (!ok) return null;
    return {
      type: document.querySelector('input[name="type"]:checked').value,
      description,
      amount: Math.round(amount * 100) / 100,
      date,
      category: $("#tx-category").value,
      note: $("#tx-note").value.trim(),
    };
  }

  function resetForm() {
    editingId = null;
    $("#tx-form").reset();
    $("#tx-date").value = isoDay(new Date());
    $("#form-title").textContent = "Add transaction";
    $("#tx-submit").textContent = "Add transaction";
    $("#tx-cancel").hidden = true;
    ["description", "amount", "date"].forEach((f) => setError(f, ""));
    renderCategorySelects();
  }

  function startEdit(id) {
    const t = state.transactions.find((x) => x.id === id);
    if (!t) return;
    editingId = id;
    document.querySelector(`input[name="type"][value="${t.type}"]`).checked = true;
    renderCategorySelects();
    $("#tx-description").value = t.description;
    $("#tx-amount").value = t.amount.toFixed(2);
    $("#tx-date").value = t.date;
    $("#tx-category").value = t.category;
    $("#tx-note").value = t.note || "";
    $("#form-title").textContent = "Edit transaction";
    $("#tx-submit").textContent = "Save changes";
    $("#tx-cancel").hidden = false;
    $("#tx-description").focus();
  }

  $("#tx-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const data = readForm();
    if (!data) return;
    if (editingId) {
      const t = state.transactions.find((x) => x.id === editingId);
      Object.assign(t, data);
      save();
      toast("Transaction updated.");
    } else {
      state.transactions.push({ id: uid(), ...data });
      save();
      if (!defect("no-save-toast")) toast(`Added “${data.description}”.`);
    }
    resetForm();
    render();
  });

  $("#tx-cancel").addEventListener("click", resetForm);
  document.querySelectorAll('input[name="type"]').forEach((r) => r.addEventListener("change", renderCategorySelects));

  /* ---------- table actions ---------- */
  $("#tx-body").addEventListener("click", (ev) => {
    const btn = ev.target.closest("button");
    if (!btn) return;
    if (btn.dataset.edit) startEdit(btn.dataset.edit);
    if (btn.dataset.delete) {
      const t = state.transactions.find((x) => x.id === btn.dataset.delete);
      pendingDeleteId = t.id;
      $("#confirm-text").textContent = `“${t.description}” (${usd.format(t.amount)}) will be removed permanently.`;
      $("#confirm-dialog").showModal();
    }
  });

  $("#confirm-cancel").addEventListener("click", () => {
    pendingDeleteId = null;
    $("#confirm-dialog").close();
  });
  $("#confirm-ok").addEventListener("click", () => {
    state.transactions = state.transactions.filter((t) => t.id !== pendingDeleteId);
    if (!defect("delete-not-persisted")) save();
    if (editingId === pendingDeleteId) resetForm();
    pendingDeleteId = null;
    $("#confirm-dialog").close();
    toast("Transaction deleted.");
    render();
  });

  /* ---------- filters ---------- */
  $("#month-select").addEventListener("change", (ev) => {
    selectedMonth = ev.target.value;
    render();
  });
  $("#filter-category").addEventListener("change", renderTable);
  $("#filter-type").addEventListener("change", renderTable);

  /* ---------- categories ---------- */
  $("#cat-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const input = $("#cat-name");
    const name = input.value.trim().replace(/\s+/g, " ");
    const err = $("#err-cat");
    if (!name) {
      err.textContent = "Give the category a name.";
      return;
    }
    if (state.categories.some((c) => c.name.toLowerCase() === name.toLowerCase())) {
      err.textContent = `A category named “${name}” already exists.`;
      return;
    }
    err.textContent = "";
    state.categories.push({ name, type: $("#cat-type").value });
    save();
    input.value = "";
    renderCategorySelects();
    toast(`Category “${name}” added.`);
  });

  resetForm();
  render();
})();
