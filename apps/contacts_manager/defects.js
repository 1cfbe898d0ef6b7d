window.WT_DEFECTS = ["duplicate-email-on-edit", "modal-close-broken", "search-skips-company"];
