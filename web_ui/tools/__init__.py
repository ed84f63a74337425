"""One-off tools for the page's assets (run by hand, not at run time)."""
