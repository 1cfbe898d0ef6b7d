window.WT_DEFECTS = ["cancel-keeps-slot", "double-booking", "end-time-display"];
