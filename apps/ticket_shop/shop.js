/* Stagepass ticket shop: listing, event page, cart with promo codes, checkout and confirmation. */
(() => {
  'use strict';

  const defect = (id) => (window.WT_DEFECTS || []).includes(id);
  const EVENTS = window.STAGEPASS_EVENTS;
  const CATEGORIES = ['Concerts', 'Theatre', 'Comedy', 'Sports'];
  const LIMIT = 6;
  const FEE = 2.5;
  const PROMOS = { STAGE10: { percent: 10 }, EARLYBIRD: { percent: 15, expired: true } };
  const CART_KEY = 'ticket_shop.cart';
  const ORDERS_KEY = 'ticket_shop.orders';
  const view = document.getElementById('view');
  const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
  const round2 = (x) => Math.round((x + Number.EPSILON) * 100) / 100;
  const esc = (s) => String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));
  const longDate = (iso) => new Date(`${iso}T12:00:00Z`).toLocaleDateString('en-US', { weekday: 'short', month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
  const eventById = (id) => EVENTS.find((e) => e.id === id);
  const ticketOf = (line) => eventById(line.eventId).tickets.find((t) => t.id === line.ticketId);
  const fromPrice = (ev) => Math.min(...ev.tickets.map((t) => t.price));

  const ART = {
    Concerts: { bg: 'linear-gradient(135deg,#7c3aed,#db2777)', icon: '<path d="M22 8v16.5a4.5 4.5 0 1 1-3-4.24V11l14-3v13.5a4.5 4.5 0 1 1-3-4.24V8.5z" fill="#fff" opacity=".9"/>' },
    Theatre: { bg: 'linear-gradient(135deg,#b91c1c,#f59e0b)', icon: '<path d="M8 8h14v8a7 7 0 0 1-14 0zM20 14h14v8a7 7 0 0 1-14 0z" fill="#fff" opacity=".9"/>' },
    Comedy: { bg: 'linear-gradient(135deg,#0ea5e9,#6366f1)', icon: '<rect x="16" y="6" width="10" height="18" rx="5" fill="#fff" opacity=".9"/><path d="M12 20a9 9 0 0 0 18 0M21 29v5M15 34h12" stroke="#fff" stroke-width="2.5" fill="none"/>' },
    Sports: { bg: 'linear-gradient(135deg,#059669,#84cc16)', icon: '<circle cx="21" cy="20" r="12" fill="#fff" opacity=".9"/><path d="M21 13l6 4-2 7h-8l-2-7z" fill="#065f46"/>' },
  };
  const art = (category, size = 42) => `<div class="art" style="background:${ART[category].bg}"><svg width="${size}" height="${size}" viewBox="0 0 42 42" aria-hidden="true">${ART[category].icon}</svg></div>`;

  function load(key, fallback) {
    try {
      const v = JSON.parse(localStorage.getItem(key));
      return v ?? fallback;
    } catch (e) {
      return fallback;
    }
  }

  let cart = load(CART_KEY, { lines: [], promo: null });
  const filters = { q: '', category: 'All' };
  let selection = {};

  /* ---------- cart model ---------- */
  const ticketCount = () => cart.lines.reduce((s, l) => s + l.qty, 0);
  const countForEvent = (eventId) => cart.lines.filter((l) => l.eventId === eventId).reduce((s, l) => s + l.qty, 0);

  function totals(lines, promo) {
    const tickets = round2(lines.reduce((s, l) => s + ticketOf(l).price * l.qty, 0));
    const count = lines.reduce((s, l) => s + l.qty, 0);
    const discount = promo ? round2((tickets * promo.percent) / 100) : 0;
    const fees = round2(count * FEE);
    return { tickets, count, discount, fees, total: round2(tickets - discount + fees) };
  }

  function updateBadge() {
    const n = ticketCount();
    const badge = document.getElementById('cart-badge');
    badge.textContent = String(n);
    badge.classList.toggle('empty', n === 0);
    document.getElementById('cart-link').setAttribute('aria-label', `Cart, ${n} ticket${n === 1 ? '' : 's'}`);
  }

  function saveCart(reason) {
    if (!cart.lines.length) cart.promo = null;
    localStorage.setItem(CART_KEY, JSON.stringify(cart));
    if (reason === 'add' || !defect('cart-badge-stale')) updateBadge();
  }

  /* ---------- toasts ---------- */
  function toast(text) {
    const el = document.createElement('div');
    el.className = 'toast';
    el.textContent = text;
    document.getElementById('toaster').appendChild(el);
    setTimeout(() => el.remove(), 3000);
  }

  /* ---------- listing ---------- */
  function matching() {
    const q = filters.q.trim().toLowerCase();
    return EVENTS.filter((e) => {
      const inCategory = filters.category === 'All' || e.category === filters.category;
      const hit = !q || `${e.title} ${e.venue} ${e.city}`.toLowerCase().includes(q);
      if (q && defect('search-ignores-category')) return hit;
      return inCategory && hit;
    }).sort((a, b) => a.date.localeCompare(b.date));
  }

  function renderList() {
    document.title = 'Stagepass — Upcoming events';
    view.innerHTML = `
      <section class="hero">
        <h1>Live events near you</h1>
        <p>Concerts, theatre, comedy and sports across Seattle, Portland and Tacoma. Up to ${LIMIT} tickets per event in each order.</p>
      </section>
      <section class="toolbar" aria-label="Find events">
        <div class="control grow">
          <label for="search">Search events</label>
          <input id="search" type="search" placeholder="Artist, show, venue or city" value="${esc(filters.q)}">
        </div>
        <div class="control">
          <label for="category">Category</label>
          <select id="category">
            <option value="All">All categories</option>
            ${CATEGORIES.map((c) => `<option value="${c}" ${filters.category === c ? 'selected' : ''}>${c}</option>`).join('')}
          </select>
        </div>
      </section>
      <p class="result-count" id="result-count" aria-live="polite"></p>
      <div id="event-grid" class="event-grid"></div>`;
    document.getElementById('search').addEventListener('input', (e) => { filters.q = e.target.value; renderGrid(); });
    document.getElementById('category').addEventListener('change', (e) => { filters.category = e.target.value; renderGrid(); });
    renderGrid();
  }

  function renderGrid() {
    const list = matching();
    document.getElementById('result-count').textContent = `${list.length} event${list.length === 1 ? '' : 's'}`;
    const grid = document.getElementById('event-grid');
    if (!list.length) {
      grid.innerHTML = `<div class="empty-state"><h2>No events match your search</h2><p>Try another keyword or category.</p><button type="button" class="btn secondary" id="clear-filters">Clear filters</button></div>`;
      document.getElementById('clear-filters').addEventListener('click', () => {
        filters.q = '';
        filters.category = 'All';
        renderList();
      });
      return;
    }
    grid.innerHTML = list.map((e) => `
      <article class="event-card" aria-labelledby="t-${e.id}">
        ${art(e.category)}
        <div class="event-body">
          <p class="tag">${e.category}</p>
          <h2 id="t-${e.id}">${esc(e.title)}</h2>
          <p class="meta"><span class="when">${longDate(e.date)} · ${e.time}</span><br><span class="where">${esc(e.venue)}, ${esc(e.city)}</span></p>
          <div class="card-foot">
            <span class="from">From <strong>${usd.format(fromPrice(e))}</strong></span>
            <a class="btn small" href="#/events/${e.id}" aria-label="View tickets for ${esc(e.title)}">View tickets</a>
          </div>
        </div>
      </article>`).join('');
  }

  /* ---------- event page ---------- */
  function allowance(ev) {
    return defect('limit-per-order-bypass') ? LIMIT : LIMIT - countForEvent(ev.id);
  }

  function renderEvent(id) {
    const ev = eventById(id);
    if (!ev) return renderMissing();
    document.title = `${ev.title} — Stagepass`;
    selection = {};
    const inCart = countForEvent(ev.id);
    view.innerHTML = `
      <a class="back" href="#/">← All events</a>
      <section class="event-hero">
        ${art(ev.category, 64)}
        <div>
          <p class="tag">${ev.category}</p>
          <h1>${esc(ev.title)}</h1>
          <p class="meta big">${longDate(ev.date)} · ${ev.time}<br>${esc(ev.venue)}, ${esc(ev.city)}</p>
          <p>${esc(ev.blurb)}</p>
        </div>
      </section>
      <section class="panel" aria-labelledby="tickets-title">
        <h2 id="tickets-title">Choose tickets</h2>
        <p class="limit-note">Limit ${LIMIT} tickets per order for this event.${inCart ? ` <strong>You already have ${inCart} in your cart.</strong>` : ''}</p>
        <ul class="ticket-list">
          ${ev.tickets.map((t) => `
            <li class="ticket-row${t.soldOut ? ' sold-out' : ''}">
              <div class="ticket-info"><h3>${esc(t.name)}</h3><p>${esc(t.note)}</p></div>
              <div class="ticket-price">${usd.format(t.price)}</div>
              ${t.soldOut ? '<div class="soldout-badge">Sold out</div>' : `
              <div class="stepper">
                <button type="button" data-step="-1" data-ticket="${t.id}" aria-label="Decrease ${esc(t.name)}">−</button>
                <input type="number" min="0" max="${LIMIT}" value="0" data-ticket="${t.id}" aria-label="${esc(t.name)} quantity">
                <button type="button" data-step="1" data-ticket="${t.id}" aria-label="Increase ${esc(t.name)}">+</button>
              </div>`}
            </li>`).join('')}
        </ul>
        <p class="form-error" id="limit-error" role="alert"></p>
        <div class="selection-bar">
          <span id="selection-summary">No tickets selected</span>
          <button type="button" class="btn primary" id="add-to-cart" disabled>Add to cart</button>
        </div>
      </section>`;
    const panel = view.querySelector('.panel');
    panel.addEventListener('click', (e) => {
      const btn = e.target.closest('[data-step]');
      if (btn) setQty(ev, btn.dataset.ticket, (selection[btn.dataset.ticket] || 0) + Number(btn.dataset.step));
    });
    panel.addEventListener('input', (e) => {
      if (e.target.matches('input[data-ticket]')) setQty(ev, e.target.dataset.ticket, Math.floor(Number(e.target.value) || 0));
    });
    document.getElementById('add-to-cart').addEventListener('click', () => addSelection(ev));
    refreshSelection(ev);
  }

  function setQty(ev, ticketId, wanted) {
    const others = Object.entries(selection).filter(([k]) => k !== ticketId).reduce((s, [, q]) => s + q, 0);
    const max = Math.max(0, allowance(ev) - others);
    const qty = Math.max(0, Math.min(wanted, max));
    selection[ticketId] = qty;
    const msg = wanted > max
      ? `You can buy up to ${LIMIT} tickets for this event per order${countForEvent(ev.id) && !defect('limit-per-order-bypass') ? ` — you already have ${countForEvent(ev.id)} in your cart` : ''}.`
      : '';
    document.getElementById('limit-error').textContent = msg;
    refreshSelection(ev);
  }

  function refreshSelection(ev) {
    const chosen = Object.values(selection).reduce((s, q) => s + q, 0);
    const room = allowance(ev) - chosen;
    view.querySelectorAll('input[data-ticket]').forEach((input) => {
      const q = selection[input.dataset.ticket] || 0;
      if (Number(input.value) !== q) input.value = String(q);
    });
    view.querySelectorAll('[data-step="1"]').forEach((b) => { b.disabled = room <= 0; });
    view.querySelectorAll('[data-step="-1"]').forEach((b) => { b.disabled = !(selection[b.dataset.ticket] > 0); });
    const cost = ev.tickets.reduce((s, t) => s + (selection[t.id] || 0) * t.price, 0);
    document.getElementById('selection-summary').textContent = chosen
      ? `${chosen} ticket${chosen === 1 ? '' : 's'} · ${usd.format(cost)}`
      : 'No tickets selected';
    document.getElementById('add-to-cart').disabled = chosen === 0;
  }

  function addSelection(ev) {
    const chosen = Object.entries(selection).filter(([, q]) => q > 0);
    const n = chosen.reduce((s, [, q]) => s + q, 0);
    if (!n) return;
    if (n > allowance(ev)) {
      document.getElementById('limit-error').textContent = `You can buy up to ${LIMIT} tickets for this event per order.`;
      return;
    }
    chosen.forEach(([ticketId, q]) => {
      const line = cart.lines.find((l) => l.eventId === ev.id && l.ticketId === ticketId);
      if (line) line.qty += q;
      else cart.lines.push({ eventId: ev.id, ticketId, qty: q });
    });
    saveCart('add');
    toast(`Added ${n} ticket${n === 1 ? '' : 's'} for ${ev.title} to your cart.`);
    renderEvent(ev.id);
  }

  /* ---------- cart ---------- */
  function summaryHtml(t, promo) {
    return `
      <dl class="sums">
        <div><dt>Tickets (${t.count})</dt><dd>${usd.format(t.tickets)}</dd></div>
        ${promo ? `<div class="discount"><dt>Promo ${esc(promo.code)} (${promo.percent}% off)</dt><dd>−${usd.format(t.discount)}</dd></div>` : ''}
        <div><dt>Service fees (${usd.format(FEE)} per ticket)</dt><dd>${usd.format(t.fees)}</dd></div>
        <div class="grand"><dt>Total</dt><dd>${usd.format(t.total)}</dd></div>
      </dl>`;
  }

  function renderCart() {
    document.title = 'Your cart — Stagepass';
    if (!cart.lines.length) {
      view.innerHTML = `<h1>Your cart</h1><div class="empty-state"><h2>Your cart is empty</h2><p>Find something to see and add tickets to your cart.</p><a class="btn primary" href="#/">Browse events</a></div>`;
      return;
    }
    const t = totals(cart.lines, cart.promo);
    view.innerHTML = `
      <h1>Your cart</h1>
      <div class="cart-layout">
        <section class="panel" aria-label="Tickets in your cart">
          <ul class="cart-lines">
            ${cart.lines.map((l, i) => {
              const ev = eventById(l.eventId);
              const tk = ticketOf(l);
              const label = `${tk.name} — ${ev.title}`;
              const full = defect('limit-per-order-bypass') ? l.qty >= LIMIT : countForEvent(ev.id) >= LIMIT;
              return `
              <li class="cart-line" data-index="${i}">
                ${art(ev.category, 28)}
                <div class="line-info"><h2>${esc(ev.title)}</h2><p>${esc(tk.name)} · ${longDate(ev.date)} · ${usd.format(tk.price)} each</p></div>
                <div class="stepper">
                  <button type="button" data-delta="-1" aria-label="Decrease ${esc(label)}" ${l.qty <= 1 ? 'disabled' : ''}>−</button>
                  <output aria-label="Quantity of ${esc(label)}">${l.qty}</output>
                  <button type="button" data-delta="1" aria-label="Increase ${esc(label)}" ${full ? 'disabled' : ''}>+</button>
                </div>
                <div class="line-total">${usd.format(tk.price * l.qty)}</div>
                <button type="button" class="remove" data-remove aria-label="Remove ${esc(label)}">Remove</button>
              </li>`;
            }).join('')}
          </ul>
        </section>
        <aside class="panel summary" aria-labelledby="summary-title">
          <h2 id="summary-title">Order summary</h2>
          <form id="promo-form" class="promo" novalidate>
            <label for="promo-code">Promo code</label>
            <div class="promo-row"><input id="promo-code" type="text" autocomplete="off" placeholder="e.g. STAGE10"><button type="submit" class="btn secondary">Apply</button></div>
            <p class="form-error" id="promo-error" role="alert"></p>
          </form>
          ${cart.promo ? `<p class="promo-chip">${esc(cart.promo.code)} applied <button type="button" class="link" id="remove-promo">Remove code</button></p>` : ''}
          ${summaryHtml(t, cart.promo)}
          <a class="btn primary block" href="#/checkout">Continue to checkout</a>
        </aside>
      </div>`;
    view.querySelector('.cart-lines').addEventListener('click', (e) => {
      const li = e.target.closest('.cart-line');
      if (!li) return;
      const line = cart.lines[Number(li.dataset.index)];
      if (e.target.closest('[data-remove]')) {
        cart.lines.splice(Number(li.dataset.index), 1);
        saveCart('remove');
        toast(`Removed ${ticketOf(line).name} for ${eventById(line.eventId).title}.`);
        renderCart();
      } else if (e.target.closest('[data-delta]')) {
        line.qty = Math.max(1, line.qty + Number(e.target.closest('[data-delta]').dataset.delta));
        saveCart('change');
        renderCart();
      }
    });
    document.getElementById('promo-form').addEventListener('submit', (e) => {
      e.preventDefault();
      applyPromo(document.getElementById('promo-code').value);
    });
    const removePromo = document.getElementById('remove-promo');
    if (removePromo) removePromo.addEventListener('click', () => { cart.promo = null; saveCart('promo'); renderCart(); });
  }

  function applyPromo(raw) {
    const code = raw.trim().toUpperCase();
    const fail = (msg) => { document.getElementById('promo-error').textContent = msg; };
    if (!code) return fail('Enter a promo code.');
    const promo = PROMOS[code];
    if (!promo) return fail('Sorry, we don’t recognise that promo code.');
    if (promo.expired) return fail(`${code} has expired.`);
    if (cart.promo && cart.promo.code === code) {
      if (!defect('promo-stacks')) return fail(`${code} is already applied to your order.`);
      cart.promo.percent += promo.percent;
    } else {
      cart.promo = { code, percent: promo.percent };
    }
    saveCart('promo');
    renderCart();
    toast(`Promo code ${code} applied.`);
  }

  /* ---------- checkout ---------- */
  const CHECKS = {
    'co-name': (v) => (v.trim() ? '' : 'Enter the name for the tickets.'),
    'co-email': (v) => (/^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/.test(v.trim()) ? '' : 'Enter a valid email address — we send your tickets there.'),
    'co-phone': (v) => (!v.trim() || v.replace(/\D/g, '').length >= 7 ? '' : 'Enter a phone number with at least 7 digits, or leave it blank.'),
    'co-card': (v) => (/^\d{16}$/.test(v.replace(/[\s-]/g, '')) ? '' : 'Enter the 16-digit card number.'),
    'co-expiry': (v) => {
      const m = /^(\d{2})\s*\/\s*(\d{2})$/.exec(v.trim());
      if (!m || Number(m[1]) < 1 || Number(m[1]) > 12) return 'Enter the expiry date as MM/YY.';
      const now = new Date();
      const expiry = new Date(2000 + Number(m[2]), Number(m[1]), 1);
      return expiry > now ? '' : 'This card has expired.';
    },
    'co-cvc': (v) => (/^\d{3,4}$/.test(v.trim()) ? '' : 'Enter the 3- or 4-digit security code.'),
  };

  function renderCheckout() {
    if (!cart.lines.length) { location.hash = '#/cart'; return; }
    document.title = 'Checkout — Stagepass';
    const t = totals(cart.lines, cart.promo);
    const field = (id, label, attrs = '') => `
      <div class="control">
        <label for="${id}">${label}</label>
        <input id="${id}" ${attrs} aria-describedby="${id}-error">
        <p class="form-error" id="${id}-error"></p>
      </div>`;
    view.innerHTML = `
      <a class="back" href="#/cart">← Back to cart</a>
      <h1>Checkout</h1>
      <div class="cart-layout">
        <form id="checkout-form" class="panel" novalidate aria-labelledby="contact-title">
          <h2 id="contact-title">Contact details</h2>
          ${field('co-name', 'Full name', 'type="text" autocomplete="name"')}
          ${field('co-email', 'Email', 'type="email" autocomplete="email"')}
          ${field('co-phone', 'Phone (optional)', 'type="tel" autocomplete="tel"')}
          <h2>Payment</h2>
          ${field('co-card', 'Card number', 'type="text" inputmode="numeric" autocomplete="cc-number" placeholder="1234 5678 9012 3456"')}
          <div class="two">
            ${field('co-expiry', 'Expiry (MM/YY)', 'type="text" inputmode="numeric" placeholder="MM/YY"')}
            ${field('co-cvc', 'Security code', 'type="text" inputmode="numeric" placeholder="CVC"')}
          </div>
          <div class="check">
            <input id="co-terms" type="checkbox" aria-describedby="co-terms-error">
            <label for="co-terms">I agree to the Stagepass terms of sale</label>
          </div>
          <p class="form-error" id="co-terms-error"></p>
          <button type="submit" class="btn primary block">Place order · ${usd.format(t.total)}</button>
        </form>
        <aside class="panel summary" aria-labelledby="co-summary-title">
          <h2 id="co-summary-title">Your order</h2>
          <ul class="mini-lines">${cart.lines.map((l) => `<li><span>${l.qty} × ${esc(ticketOf(l).name)}</span><small>${esc(eventById(l.eventId).title)}</small></li>`).join('')}</ul>
          ${summaryHtml(t, cart.promo)}
        </aside>
      </div>`;
    document.getElementById('checkout-form').addEventListener('submit', (e) => {
      e.preventDefault();
      placeOrder();
    });
  }

  function placeOrder() {
    let ok = true;
    Object.entries(CHECKS).forEach(([id, rule]) => {
      const input = document.getElementById(id);
      const msg = rule(input.value);
      document.getElementById(`${id}-error`).textContent = msg;
      input.setAttribute('aria-invalid', msg ? 'true' : 'false');
      if (msg) ok = false;
    });
    const terms = document.getElementById('co-terms');
    document.getElementById('co-terms-error').textContent = terms.checked ? '' : 'Please accept the terms of sale.';
    terms.setAttribute('aria-invalid', terms.checked ? 'false' : 'true');
    if (!terms.checked) ok = false;
    if (!ok) {
      const first = view.querySelector('[aria-invalid="true"]');
      if (first) first.focus();
      return;
    }
    const t = totals(cart.lines, cart.promo);
    const order = {
      id: `SP-${String(Math.floor(100000 + Math.random() * 900000))}`,
      name: document.getElementById('co-name').value.trim(),
      email: document.getElementById('co-email').value.trim(),
      lines: cart.lines.map((l) => ({ title: eventById(l.eventId).title, date: eventById(l.eventId).date, ticket: ticketOf(l).name, price: ticketOf(l).price, qty: l.qty })),
      promo: cart.promo,
      ...t,
    };
    const orders = load(ORDERS_KEY, []);
    orders.push(order);
    localStorage.setItem(ORDERS_KEY, JSON.stringify(orders));
    cart = { lines: [], promo: null };
    saveCart('order');
    location.hash = `#/order/${order.id}`;
  }

  function renderOrder(id) {
    const order = load(ORDERS_KEY, []).find((o) => o.id === id);
    if (!order) return renderMissing();
    document.title = `Order ${order.id} — Stagepass`;
    const paid = defect('confirmation-total-mismatch') ? round2(order.tickets + order.fees) : order.total;
    view.innerHTML = `
      <section class="panel confirmation">
        <div class="tick" aria-hidden="true">✓</div>
        <h1>You’re going!</h1>
        <p>Order <strong>${esc(order.id)}</strong> is confirmed. We’ve emailed your tickets to <strong>${esc(order.email)}</strong>.</p>
        <ul class="mini-lines">${order.lines.map((l) => `<li><span>${l.qty} × ${esc(l.ticket)}</span><small>${esc(l.title)} · ${longDate(l.date)}</small></li>`).join('')}</ul>
        <p class="paid">Total paid <strong>${usd.format(paid)}</strong></p>
        <a class="btn secondary" href="#/">Find more events</a>
      </section>`;
  }

  function renderMissing() {
    view.innerHTML = '<div class="empty-state"><h1>Page not found</h1><p>That event or order doesn’t exist.</p><a class="btn primary" href="#/">Back to events</a></div>';
  }

  /* ---------- router ---------- */
  function route() {
    const hash = location.hash.replace(/^#\/?/, '');
    const [section, arg] = hash.split('/');
    if (section === 'events' && arg) renderEvent(decodeURIComponent(arg));
    else if (section === 'cart') renderCart();
    else if (section === 'checkout') renderCheckout();
    else if (section === 'order' && arg) renderOrder(decodeURIComponent(arg));
    else renderList();
    window.scrollTo(0, 0);
  }

  window.addEventListener('hashchange', route);
  updateBadge();
  route();
})();
