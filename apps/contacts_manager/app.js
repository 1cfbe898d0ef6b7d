/* Addressly: a contact manager kept in localStorage. */
(function () {
  "use strict";

  const defect = (id) => (window.WT_DEFECTS || []).includes(id);
  const STORE_KEY = "contacts_manager.v1";
  const GROUPS = [
    { id: "family", name: "Family", color: "#db2777" },
    { id: "friends", name: "Friends", color: "#16a34a" },
    { id: "work", name: "Work", color: "#0284c7" },
    { id: "clients", name: "Clients", color: "#d97706" },
  ];
  const AVATAR_COLORS = ["#4f46e5", "#0891b2", "#db2777", "#16a34a", "#d97706", "#7c3aed", "#dc2626", "#0d9488"];
  const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;

  const el = (id) => document.getElementById(id);

  const SEED = [
    ["Amelia", "Hart", "amelia.hart@northwind.io", "+1 (415) 555-0132", "Northwind Labs", ["work"]],
    ["Ben", "Okafor", "ben.okafor@gmail.com", "+1 (312) 555-0178", "", ["friends"]],
    ["Carmen", "Ruiz", "carmen@ruizdesign.co", "+1 (305) 555-0111", "Ruiz Design Co.", ["clients"]],
    ["Daniel", "Kim", "dkim@brightline.studio", "+1 (206) 555-0190", "Brightline Studio", ["work"]],
    ["Elena", "Petrova", "elena.petrova@outlook.com", "+1 (646) 555-0147", "", ["family"]],
    ["Farah", "Haddad", "farah.h@mhealth.org", "+1 (617) 555-0163", "Meridian Health", ["clients"]],
    ["George", "Mitchell", "george.m@icloud.com", "+1 (503) 555-0125", "", ["family"]],
    ["Hannah", "Schultz", "hannah@schultzbakery.de", "+49 30 5550 1942", "Schultz Bakery", ["clients", "friends"]],
    ["Isaac", "Nguyen", "isaac.nguyen@northwind.io", "+1 (415) 555-0186", "Northwind Labs", ["work"]],
    ["Julia", "Bennett", "julia.bennett@gmail.com", "+1 (720) 555-0109", "", ["friends"]],
    ["Kofi", "Mensah", "kofi@mensahlegal.com", "+1 (202) 555-0154", "Mensah Legal", ["clients"]],
    ["Laura", "Chen", "laura.chen@brightline.studio", "+1 (206) 555-0137", "Brightline Studio", ["work", "friends"]],
    ["Martin", "Hart", "martin.hart@fastmail.com", "+1 (415) 555-0199", "", ["family"]],
  ];

  function seed() {
    const base = Date.UTC(2025, 0, 6);
    return SEED.map(([first, last, email, phone, company, groups], i) => ({
      id: `c${i + 1}`, first, last, email, phone, company, groups, notes: "", created: base + i * 86400000,
    }));
  }

  function load() {
    try {
      const raw = localStorage.getItem(STORE_KEY);
      if (raw) return JSON.parse(raw);
    } catch (e) { /* use the sample address book */ }
    return seed();
  }

  let contacts = load();
  let activeGroup = "all";
  let editingId = null;
  let deletingId = null;

  function persist() {
    localStorage.setItem(STORE_KEY, JSON.stringify(contacts));
  }

  const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
  const fullName = (c) => `${c.first} ${c.last}`.trim();
  const initials = (c) => (c.first[0] + (c.last ? c.last[0] : "")).toUpperCase();
  const colorFor = (c) => AVATAR_COLORS[[...c.email].reduce((s, ch) => s + ch.charCodeAt(0), 0) % AVATAR_COLORS.length];
  const normEmail = (e) => e.trim().toLowerCase();

  /* ---------- toasts ---------- */
  function toast(message) {
    const t = document.createElement("div");
    t.className = "toast";
    t.innerHTML = `<svg width="18" height="18" viewBox="0 0 18 18" aria-hidden="true"><circle cx="9" cy="9" r="9" fill="#22c55e"/><path d="M5 9.5l2.5 2.5L13 6.5" stroke="#fff" stroke-width="2" fill="none" stroke-linecap="round"/></svg><span>${esc(message)}</span>`;
    el("toast-region").appendChild(t);
    setTimeout(() => t.remove(), 3000);
  }

  /* ---------- list ---------- */
  function matchesSearch(c, q) {
    if (!q) return true;
    const fields = [fullName(c), c.email];
    if (!defect("search-skips-company")) fields.push(c.company, c.phone);
    return fields.some((f) => f && f.toLowerCase().includes(q));
  }

  function sorted(list) {
    const mode = el("sort").value;
    const byName = (a, b) => fullName(a).localeCompare(fullName(b), "en", { sensitivity: "base" });
    const copy = list.slice();
    if (mode === "name-asc") copy.sort(byName);
    if (mode === "name-desc") copy.sort((a, b) => byName(b, a));
    if (mode === "company") copy.sort((a, b) => (a.company || "\uffff").localeCompare(b.company || "\uffff") || byName(a, b));
    if (mode === "recent") copy.sort((a, b) => b.created - a.created);
    return copy;
  }

  function visibleContacts() {
    const q = el("search").value.trim().toLowerCase();
    return sorted(contacts.filter((c) =>
      (activeGroup === "all" || c.groups.includes(activeGroup)) && matchesSearch(c, q)));
  }

  function renderGroups() {
    const allCount = defect("all-count-off-by-one") ? contacts.length - 1 : contacts.length;
    const rows = [{ id: "all", name: "All contacts", color: "#6b7280", count: allCount }]
      .concat(GROUPS.map((g) => ({ ...g, count: contacts.filter((c) => c.groups.includes(g.id)).length })));
    el("group-nav").innerHTML = rows.map((g) => `<li>
      <button type="button" data-group="${g.id}" aria-pressed="${g.id === activeGroup}">
        <span><span class="dot" style="background:${g.color}" aria-hidden="true"></span>${g.name}</span>
        <span class="badge">${g.count}</span>
      </button></li>`).join("");
  }

  function card(c) {
    const name = esc(fullName(c));
    const tags = c.groups.map((g) => {
      const group = GROUPS.find((x) => x.id === g);
      return `<li class="tag tag-${g}">${group ? group.name : esc(g)}</li>`;
    }).join("");
    return `<li><article class="contact" aria-labelledby="name-${c.id}">
      <div class="avatar" style="background:${colorFor(c)}" aria-hidden="true">${esc(initials(c))}</div>
      <h3 id="name-${c.id}">${name}</h3>
      <p class="company">${c.company ? esc(c.company) : "&nbsp;"}</p>
      <dl>
        <dt>Email</dt><dd><a href="mailto:${esc(c.email)}">${esc(c.email)}</a></dd>
        <dt>Phone</dt><dd>${c.phone ? esc(c.phone) : '<span class="muted">—</span>'}</dd>
      </dl>
      <ul class="tags" aria-label="Groups">${tags}</ul>
      <div class="card-actions">
        <button type="button" class="link-btn" data-edit="${c.id}" aria-label="Edit ${name}">Edit</button>
        <button type="button" class="link-btn danger" data-delete="${c.id}" aria-label="Delete ${name}">Delete</button>
      </div>
    </article></li>`;
  }

  function render() {
    renderGroups();
    const list = visibleContacts();
    const group = GROUPS.find((g) => g.id === activeGroup);
    el("list-title").textContent = group ? group.name : "All contacts";
    el("result-count").textContent = `${list.length} ${list.length === 1 ? "contact" : "contacts"}`;
    el("contact-list").innerHTML = list.map(card).join("");
    const empty = list.length === 0;
    el("empty-state").hidden = !empty;
    const searching = el("search").value.trim() !== "";
    el("empty-title").textContent = contacts.length === 0 ? "Your address book is empty" : "No contacts found";
    el("empty-text").textContent = contacts.length === 0
      ? "Add your first contact with the New contact button."
      : searching ? "Nothing matches your search. Check the spelling or try another name."
        : "No one is in this group yet.";
    el("clear-search").hidden = !searching;
  }

  /* ---------- dialog ---------- */
  const dialog = el("contact-dialog");
  el("group-checkboxes").innerHTML = GROUPS.map((g) =>
    `<label><input type="checkbox" name="groups" value="${g.id}"> ${g.name}</label>`).join("");

  function setFieldError(id, msg) {
    el(`e-${id}`).textContent = msg || "";
    const input = el(`f-${id}`);
    if (msg) input.setAttribute("aria-invalid", "true");
    else input.removeAttribute("aria-invalid");
  }

  function openDialog(contact) {
    el("contact-form").reset();
    setFieldError("first", "");
    setFieldError("email", "");
    editingId = contact ? contact.id : null;
    el("dialog-title").textContent = contact ? "Edit contact" : "New contact";
    if (contact) {
      el("f-first").value = contact.first;
      el("f-last").value = contact.last;
      el("f-email").value = contact.email;
      el("f-phone").value = contact.phone;
      el("f-company").value = contact.company;
      el("f-notes").value = contact.notes || "";
      if (!defect("edit-loses-groups")) {
        document.querySelectorAll('input[name="groups"]').forEach((box) => {
          box.checked = contact.groups.includes(box.value);
        });
      }
    } else if (activeGroup !== "all") {
      document.querySelector(`input[name="groups"][value="${activeGroup}"]`).checked = true;
    }
    dialog.showModal();
    el("f-first").focus();
  }

  function closeDialog() {
    dialog.close();
    editingId = null;
  }

  function emailTaken(email, exceptId) {
    return contacts.some((c) => c.id !== exceptId && normEmail(c.email) === normEmail(email));
  }

  el("contact-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const data = {
      first: el("f-first").value.trim(),
      last: el("f-last").value.trim(),
      email: el("f-email").value.trim(),
      phone: el("f-phone").value.trim(),
      company: el("f-company").value.trim(),
      notes: el("f-notes").value.trim(),
      groups: Array.from(document.querySelectorAll('input[name="groups"]:checked')).map((b) => b.value),
    };
    let ok = true;
    setFieldError("first", "");
    setFieldError("email", "");
    if (!data.first) { setFieldError("first", "First name is required."); ok = false; }
    if (!data.email) { setFieldError("email", "Email is required."); ok = false; }
    else if (!EMAIL_RE.test(data.email)) { setFieldError("email", "Enter a valid email address, like name@example.com."); ok = false; }
    else {
      const checkDuplicate = !editingId || !defect("duplicate-email-on-edit");
      if (checkDuplicate && emailTaken(data.email, editingId)) {
        setFieldError("email", "Another contact already uses this email address.");
        ok = false;
      }
    }
    if (!ok) {
      (el("f-first").getAttribute("aria-invalid") ? el("f-first") : el("f-email")).focus();
      return;
    }
    if (editingId) {
      const c = contacts.find((x) => x.id === editingId);
      Object.assign(c, data);
      toast(`${fullName(c)} updated`);
    } else {
      const c = { id: `c${Date.now().toString(36)}`, created: Date.now(), ...data };
      contacts.push(c);
      toast(`${fullName(c)} added to contacts`);
    }
    persist();
    closeDialog();
    render();
  });

  el("dialog-close").addEventListener("click", (ev) => {
    if (defect("modal-close-broken")) return;
    ev.preventDefault();
    closeDialog();
  });
  el("dialog-cancel").addEventListener("click", closeDialog);
  el("new-contact").addEventListener("click", () => openDialog(null));

  /* ---------- delete ---------- */
  const delDialog = el("delete-dialog");
  el("delete-cancel").addEventListener("click", () => { deletingId = null; delDialog.close(); });
  el("delete-confirm").addEventListener("click", () => {
    const c = contacts.find((x) => x.id === deletingId);
    contacts = contacts.filter((x) => x.id !== deletingId);
    persist();
    deletingId = null;
    delDialog.close();
    if (c) toast(`${fullName(c)} deleted`);
    render();
  });

  el("contact-list").addEventListener("click", (ev) => {
    const btn = ev.target.closest("button");
    if (!btn) return;
    if (btn.dataset.edit) openDialog(contacts.find((c) => c.id === btn.dataset.edit));
    if (btn.dataset.delete) {
      const c = contacts.find((x) => x.id === btn.dataset.delete);
      deletingId = c.id;
      el("delete-text").textContent = `${fullName(c)} will be removed from your contacts. This can't be undone.`;
      delDialog.showModal();
    }
  });

  /* ---------- filters ---------- */
  el("group-nav").addEventListener("click", (ev) => {
    const btn = ev.target.closest("button[data-group]");
    if (!btn) return;
    activeGroup = btn.dataset.group;
    render();
  });
  el("search").addEventListener("input", render);
  el("sort").addEventListener("change", render);
  el("clear-search").addEventListener("click", () => {
    el("search").value = "";
    render();
    el("search").focus();
  });

  render();
})();
