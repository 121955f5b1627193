"""The zine's colours, in one place: the CSS and the SVG charts use these, and the tests
compute every text/background pair's contrast from here (WCAG 2 relative luminance)."""

from __future__ import annotations

__all__ = ["GRAPHIC_PAIRS", "PALETTE", "TEXT_PAIRS", "contrast", "css_variables"]

PALETTE: dict[str, str] = {
    "paper": "#fdfbf6",
    "ink": "#1b1b1b",
    "muted": "#4d4a44",
    "accent": "#8a1c1c",
    "link": "#0b4f8a",
    "head": "#efe8d8",
    "rule": "#8c8470",
    "home": "#1f5fa8",
    "away": "#a8501b",
    "wicket": "#b00020",
    "good": "#2e6b2e",
    "bad": "#a8321b",
}

# (foreground, background) pairs used for text: each must reach 4.5:1.
TEXT_PAIRS: tuple[tuple[str, str], ...] = (
    ("ink", "paper"),
    ("muted", "paper"),
    ("accent", "paper"),
    ("link", "paper"),
    ("ink", "head"),
    ("muted", "head"),
    ("accent", "head"),
    ("link", "head"),
    ("paper", "accent"),
    ("home", "paper"),
    ("away", "paper"),
    ("good", "paper"),
    ("bad", "paper"),
)

# Chart marks and borders against the paper: 3:1 (WCAG 1.4.11, non-text contrast).
GRAPHIC_PAIRS: tuple[tuple[str, str], ...] = (
    ("home", "paper"),
    ("away", "paper"),
    ("wicket", "paper"),
    ("rule", "paper"),
    ("good", "paper"),
    ("bad", "paper"),
)


def _luminance(hex_colour: str) -> float:
    h = hex_colour.lstrip("#")
    channels = [int(h[i : i + 2], 16) / 255 for i in (0, 2, 4)]
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(fg: str, bg: str) -> float:
    """The WCAG contrast ratio of two ``#rrggbb`` colours (1 to 21)."""
    a, b = sorted((_luminance(fg), _luminance(bg)), reverse=True)
    return (a + 0.05) / (b + 0.05)


def css_variables() -> str:
    """``:root { --paper: ...; ... }`` for the stylesheet."""
    body = " ".join(f"--{k}: {v};" for k, v in PALETTE.items())
    return f":root {{ {body} }}"
