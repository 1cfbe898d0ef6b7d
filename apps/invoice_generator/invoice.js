/* Paperline invoice editor: client details, line items, tax and discount, numbering, saved invoices, print preview. */
(() => {
  'use strict';

  const defect = (id) => (window.WT_DEFECTS || []).includes(id);
  const STORE = 'invoice_generator.invoices';
  const $ = (id) => document.getElementById(id);
  const round2 = (x) => Math.round((x + Number.EPSILON) * 100) / 100;
  const esc = (s) => String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));
  const formatters = {};
  const money = (value, currency) => {
    formatters[currency] = formatters[currency] || new Intl.NumberFormat('en-US', { style: 'currency', currency });
    return formatters[currency].format(value);
  };
  const longDate = (iso) => (iso ? new Date(`${iso}T00:00:00Z`).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' }) : '—');
  const isoDate = (d) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
  const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;

  const SEED = [
    { number: 'INV-1041', client: 'Priya Raman', company: 'Northwind Traders', email: 'ap@northwind.example', address: '88 Harbor Way, Seattle, WA 98101', issue: '2025-08-04', due: '2025-09-03', currency: 'USD', taxRate: 8.5, discountPct: 0, notes: '', lines: [{ desc: 'Brand identity refresh', qty: 1, price: 2200 }, { desc: 'Business card layout', qty: 2, price: 125 }] },
    { number: 'INV-1042', client: 'Dr. Marcus Lee', company: 'Acme Dental Group', email: 'office@acmedental.example', address: '410 Elm Street, Portland, OR 97205', issue: '2025-08-19', due: '2025-09-18', currency: 'USD', taxRate: 0, discountPct: 10, notes: '', lines: [{ desc: 'Website maintenance (hours)', qty: 12, price: 95 }] },
    { number: 'INV-1043', client: 'Sofia Marchetti', company: 'Blue Heron Café', email: 'sofia@blueheron.example', address: '5 Via Roma, Milan, Italy', issue: '2025-09-02', due: '2025-10-02', currency: 'EUR', taxRate: 22, discountPct: 0, notes: '', lines: [{ desc: 'Menu design, print-ready', qty: 1, price: 640 }, { desc: 'Photography session', qty: 3, price: 180 }] },
  ];

  let invoices = loadInvoices();
  let currentNumber = nextNumber();
  let lines = [];
  let lineSeq = 0;

  /* ---------- storage & numbering ---------- */
  function loadInvoices() {
    const raw = localStorage.getItem(STORE);
    if (raw === null) {
      const seeded = SEED.map((inv) => ({ ...inv, ...computeTotals(inv.lines, inv.taxRate, inv.discountPct) }));
      localStorage.setItem(STORE, JSON.stringify(seeded));
      return seeded;
    }
    try {
      const parsed = JSON.parse(raw);
      return Array.isArray(parsed) ? parsed : [];
    } catch (e) {
      return [];
    }
  }

  function persist() {
    localStorage.setItem(STORE, JSON.stringify(invoices));
  }

  function nextNumber() {
    const used = invoices.map((inv) => Number(String(inv.number).replace(/\D/g, '')) || 0);
    return `INV-${Math.max(1040, ...used) + 1}`;
  }

  /* ---------- maths ---------- */
  function lineAmount(line) {
    const qty = Number(line.qty);
    const price = Number(line.price);
    if (!Number.isFinite(qty) || !Number.isFinite(price)) return 0;
    if (qty <= 0 && !defect('negative-qty-accepted')) return 0;
    return round2(qty * price);
  }

  function computeTotals(items, taxRate, discountPct) {
    const subtotal = round2(items.reduce((s, l) => s + lineAmount(l), 0));
    const discount = round2(subtotal * (Number(discountPct) || 0) / 100);
    const taxable = defect('tax-before-discount') ? subtotal : subtotal - discount;
    const tax = round2(taxable * (Number(taxRate) || 0) / 100);
    return { subtotal, discount, tax, total: round2(subtotal - discount + tax) };
  }

  /* ---------- form state ---------- */
  function readForm() {
    return {
      number: currentNumber,
      client: $('client-name').value.trim(),
      email: $('client-email').value.trim(),
      company: $('client-company').value.trim(),
      address: $('client-address').value.trim(),
      issue: $('issue-date').value,
      due: $('due-date').value,
      currency: $('currency').value,
      taxRate: Number($('tax-rate').value) || 0,
      discountPct: Number($('discount').value) || 0,
      notes: $('notes').value.trim(),
      lines: lines.filter((l) => l.desc.trim() || l.price !== '').map((l) => ({ desc: l.desc.trim(), qty: Number(l.qty), price: Number(l.price) })),
    };
  }

  function newLine() {
    lineSeq += 1;
    return { id: lineSeq, desc: '', qty: '1', price: '' };
  }

  function renderLines() {
    const currency = $('currency').value;
    $('items-body').innerHTML = lines.map((l, i) => `
      <tr data-id="${l.id}">
        <td><input type="text" data-key="desc" aria-label="Description, line ${i + 1}" placeholder="e.g. Landing page design" value="${esc(l.desc)}"></td>
        <td><input type="number" data-key="qty" step="any" aria-label="Quantity, line ${i + 1}" value="${esc(l.qty)}"></td>
        <td><input type="number" data-key="price" step="0.01" aria-label="Unit price, line ${i + 1}" placeholder="0.00" value="${esc(l.price)}"></td>
        <td class="amount" data-amount>${money(lineAmount(l), currency)}</td>
        <td><button type="button" class="icon-btn" data-remove aria-label="Remove line ${i + 1}">×</button></td>
      </tr>`).join('');
  }

  function refreshTotals() {
    const currency = $('currency').value;
    lines.forEach((l) => {
      const cell = document.querySelector(`tr[data-id="${l.id}"] [data-amount]`);
      if (cell) cell.textContent = money(lineAmount(l), currency);
    });
    const t = computeTotals(lines, $('tax-rate').value, $('discount').value);
    $('sum-subtotal').textContent = money(t.subtotal, currency);
    $('sum-discount').textContent = t.discount ? `−${money(t.discount, currency)}` : money(0, currency);
    $('sum-tax').textContent = money(t.tax, currency);
    $('sum-total').textContent = money(t.total, currency);
  }

  /* ---------- validation ---------- */
  function setError(inputId, message) {
    const input = $(inputId);
    const box = $(`${inputId}-error`);
    if (box) box.textContent = message;
    input.setAttribute('aria-invalid', message ? 'true' : 'false');
    return !message;
  }

  function qtyProblem(line) {
    if (line.qty === '' || !Number.isFinite(Number(line.qty))) return 'quantity is required';
    if (Number(line.qty) <= 0 && !defect('negative-qty-accepted')) return 'quantity must be greater than 0';
    return '';
  }

  function validateLines() {
    const problems = [];
    const filled = lines.filter((l) => l.desc.trim() || l.price !== '');
    lines.forEach((l, i) => {
      const row = document.querySelector(`tr[data-id="${l.id}"]`);
      const used = l.desc.trim() || l.price !== '';
      const qty = used ? qtyProblem(l) : '';
      const desc = used && !l.desc.trim() ? 'description is required' : '';
      const price = used && (l.price === '' || Number(l.price) < 0) ? 'unit price must be 0 or more' : '';
      row.querySelector('[data-key="qty"]').setAttribute('aria-invalid', qty ? 'true' : 'false');
      row.querySelector('[data-key="desc"]').setAttribute('aria-invalid', desc ? 'true' : 'false');
      row.querySelector('[data-key="price"]').setAttribute('aria-invalid', price ? 'true' : 'false');
      [desc, qty, price].filter(Boolean).forEach((p) => problems.push(`Line ${i + 1}: ${p}.`));
    });
    if (!filled.length) problems.push('Add at least one line item.');
    $('items-error').textContent = problems.join(' ');
    return problems.length === 0;
  }

  function validateAll() {
    const name = $('client-name').value.trim();
    const email = $('client-email').value.trim();
    const results = [
      setError('client-name', name ? '' : 'Enter the client’s name.'),
      setError('client-email', !email ? 'Enter the client’s email address.' : (EMAIL.test(email) ? '' : 'Enter a valid email address, like name@company.com.')),
      setError('due-date', $('due-date').value && $('issue-date').value && $('due-date').value < $('issue-date').value ? 'The due date can’t be before the issue date.' : (!$('due-date').value ? 'Choose a due date.' : '')),
      setError('tax-rate', rangeError($('tax-rate').value, 'Tax rate')),
      setError('discount', rangeError($('discount').value, 'Discount')),
      validateLines(),
    ];
    return results.every(Boolean);
  }

  function rangeError(raw, label) {
    if (raw === '') return '';
    const v = Number(raw);
    return Number.isFinite(v) && v >= 0 && v <= 100 ? '' : `${label} must be between 0 and 100%.`;
  }

  /* ---------- actions ---------- */
  function saveInvoice() {
    if (!validateAll()) {
      toast('Please fix the highlighted fields before saving.', 'bad');
      const first = document.querySelector('#invoice-form [aria-invalid="true"]');
      if (first) first.focus();
      return;
    }
    const inv = readForm();
    Object.assign(inv, computeTotals(inv.lines, inv.taxRate, inv.discountPct));
    invoices.push(inv);
    persist();
    renderSaved();
    toast(`Invoice ${inv.number} saved.`);
    if (!defect('duplicate-invoice-number')) currentNumber = nextNumber();
    resetForm();
  }

  function resetForm() {
    ['client-name', 'client-email', 'client-company', 'client-address'].forEach((id) => { $(id).value = ''; });
    document.querySelectorAll('#invoice-form [aria-invalid]').forEach((el) => el.setAttribute('aria-invalid', 'false'));
    document.querySelectorAll('#invoice-form .field-error').forEach((el) => { el.textContent = ''; });
    const today = new Date();
    const due = new Date(today);
    due.setDate(due.getDate() + 30);
    $('issue-date').value = isoDate(today);
    $('due-date').value = isoDate(due);
    $('tax-rate').value = '0';
    $('discount').value = '0';
    $('inv-number').value = currentNumber;
    lines = [newLine()];
    renderLines();
    refreshTotals();
  }

  function renderSaved() {
    $('saved-count').textContent = String(invoices.length);
    $('saved-empty').hidden = invoices.length > 0;
    $('saved-table').hidden = invoices.length === 0;
    $('saved-body').innerHTML = invoices.slice().reverse().map((inv) => `
      <tr>
        <td><strong>${esc(inv.number)}</strong></td>
        <td>${esc(inv.client)}${inv.company ? `<br><small>${esc(inv.company)}</small>` : ''}</td>
        <td>${longDate(inv.issue)}</td>
        <td>${longDate(inv.due)}</td>
        <td class="num">${money(inv.total, inv.currency)}</td>
        <td><button type="button" class="link" data-view="${esc(inv.number)}" aria-label="View ${esc(inv.number)}">View</button></td>
      </tr>`).join('');
  }

  /* ---------- preview ---------- */
  function openPreview(inv) {
    const t = computeTotals(inv.lines, inv.taxRate, inv.discountPct);
    const currency = defect('preview-currency-symbol') ? 'USD' : inv.currency;
    const fmt = (v) => money(v, currency);
    const rows = inv.lines.length
      ? inv.lines.map((l) => `<tr><td>${esc(l.desc)}</td><td class="r">${esc(l.qty)}</td><td class="r">${fmt(l.price)}</td><td class="r">${fmt(lineAmount(l))}</td></tr>`).join('')
      : '<tr><td colspan="4">No line items yet.</td></tr>';
    $('preview-sheet').innerHTML = `
      <div class="sheet-head">
        <div><h3>INVOICE</h3><p>Brightside Studio LLC<br>1200 Market Street, Suite 400<br>San Francisco, CA 94102<br>billing@brightside.studio</p></div>
        <div class="sheet-meta">
          <p>Invoice number<br><strong>${esc(inv.number)}</strong></p>
          <p>Issue date: <strong>${longDate(inv.issue)}</strong><br>Due date: <strong>${longDate(inv.due)}</strong></p>
        </div>
      </div>
      <div class="sheet-parties">
        <div><h4>Bill to</h4><p><strong>${esc(inv.client) || '—'}</strong>${inv.company ? `<br>${esc(inv.company)}` : ''}${inv.address ? `<br>${esc(inv.address)}` : ''}${inv.email ? `<br>${esc(inv.email)}` : ''}</p></div>
        <div><h4>Amount due</h4><p class="big"><strong>${fmt(t.total)}</strong><br>by ${longDate(inv.due)}</p></div>
      </div>
      <table>
        <thead><tr><th>Description</th><th class="r">Qty</th><th class="r">Unit price</th><th class="r">Amount</th></tr></thead>
        <tbody>${rows}</tbody>
      </table>
      <div class="sheet-totals">
        <div><span>Subtotal</span><span>${fmt(t.subtotal)}</span></div>
        <div><span>Discount (${inv.discountPct}%)</span><span>${t.discount ? `−${fmt(t.discount)}` : fmt(0)}</span></div>
        <div><span>Tax (${inv.taxRate}%)</span><span>${fmt(t.tax)}</span></div>
        <div class="grand"><span>Total due</span><span>${fmt(t.total)}</span></div>
      </div>
      ${inv.notes ? `<p class="sheet-notes">${esc(inv.notes)}</p>` : ''}`;
    $('preview-overlay').hidden = false;
    $('close-preview').focus();
  }

  function closePreview() {
    $('preview-overlay').hidden = true;
    $('preview-btn').focus();
  }

  /* ---------- toasts ---------- */
  function toast(text, tone = '') {
    const el = document.createElement('div');
    el.className = `toast ${tone}`;
    el.textContent = text;
    $('toast-stack').appendChild(el);
    setTimeout(() => el.remove(), 3000);
  }

  /* ---------- events ---------- */
  $('items-body').addEventListener('input', (event) => {
    const input = event.target;
    const row = input.closest('tr');
    const line = lines.find((l) => String(l.id) === row.dataset.id);
    if (!line) return;
    line[input.dataset.key] = input.value;
    if (input.dataset.key === 'qty') {
      const problem = qtyProblem(line);
      input.setAttribute('aria-invalid', problem ? 'true' : 'false');
      $('items-error').textContent = problem ? `Line ${lines.indexOf(line) + 1}: ${problem}.` : '';
    }
    refreshTotals();
  });
  $('items-body').addEventListener('click', (event) => {
    if (!event.target.closest('[data-remove]')) return;
    const id = event.target.closest('tr').dataset.id;
    lines = lines.filter((l) => String(l.id) !== id);
    if (!lines.length) lines.push(newLine());
    renderLines();
    refreshTotals();
  });
  $('add-line').addEventListener('click', () => {
    lines.push(newLine());
    renderLines();
    refreshTotals();
    document.querySelector('#items-body tr:last-child input').focus();
  });
  ['tax-rate', 'discount'].forEach((id) => $(id).addEventListener('input', () => {
    setError(id, rangeError($(id).value, id === 'tax-rate' ? 'Tax rate' : 'Discount'));
    refreshTotals();
  }));
  $('currency').addEventListener('change', refreshTotals);
  ['client-name', 'client-email', 'due-date'].forEach((id) => $(id).addEventListener('input', () => setError(id, '')));
  $('save-btn').addEventListener('click', saveInvoice);
  $('reset-btn').addEventListener('click', resetForm);
  $('preview-btn').addEventListener('click', () => openPreview(readForm()));
  $('saved-body').addEventListener('click', (event) => {
    const btn = event.target.closest('[data-view]');
    const inv = btn && invoices.find((i) => i.number === btn.dataset.view);
    if (inv) openPreview(inv);
  });
  $('print-btn').addEventListener('click', () => window.print());
  const closeTarget = document.querySelector(defect('preview-close-broken') ? '.dialog-bar .close' : '#close-preview');
  if (closeTarget) closeTarget.addEventListener('click', closePreview);
  $('preview-overlay').addEventListener('click', (event) => { if (event.target === $('preview-overlay')) closePreview(); });
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && !$('preview-overlay').hidden) closePreview();
  });

  resetForm();
  renderSaved();
})();
