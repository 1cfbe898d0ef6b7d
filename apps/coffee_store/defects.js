window.WT_DEFECTS = ["free-shipping-boundary", "grind-merge", "placeholder-tasting-notes"];
