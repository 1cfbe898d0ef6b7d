window.WT_DEFECTS = ["negative-qty-accepted", "preview-close-broken", "tax-before-discount"];
