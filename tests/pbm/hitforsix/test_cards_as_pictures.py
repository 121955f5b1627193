"""Hit for Six's cards as pictures for mail: each card's fingerprint in its country's colours
as a small PNG made by Typst (no browser), the same bytes every time, a hand well under 60 KB;
and the HTML twin of every Hit for Six mail shows a hand's cards by Content-ID, the card's
text in each picture's alt, and its codes in boxes that never wrap."""

from __future__ import annotations

import re
import struct
import time
import zlib
from email.message import EmailMessage

from engine.hitforsix.colours import team_colours
from pbm.cli.mail_preview import sender_of
from pbm.core.config import ServerConfig
from pbm.daemon import Daemon
from pbm.games.hitforsix import solo
from pbm.games.hitforsix.card_images import CARD_PX, card_png, hand_images
from pbm.games.hitforsix.decks.load import load_deck
from pbm.outbound.render import render_email
from pbm.testing import Conversation, RecordingSender
from tests.pbm.test_templates import SAMPLES

SERVER = ServerConfig(address="pbm@example.test")


def _pixels(png: bytes) -> tuple[int, int, set[tuple[int, int, int]]]:
    """Width, height and the opaque colours of an 8-bit RGBA PNG (Typst's kind), decoded by
    the PNG specification's filters, so the test reads the picture and not how it was made."""
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    pos, idat, head = 8, b"", b""
    while pos < len(png):
        (length,), kind = struct.unpack(">I", png[pos : pos + 4]), png[pos + 4 : pos + 8]
        data = png[pos + 8 : pos + 8 + length]
        head = data if kind == b"IHDR" else head
        idat += data if kind == b"IDAT" else b""
        pos += 12 + length
    width, height, depth, colour = struct.unpack(">IIBB", head[:10])
    assert (depth, colour) == (8, 6), "8-bit RGBA"
    raw, stride, prev = zlib.decompress(idat), width * 4, bytearray(width * 4)
    colours = set()
    for y in range(height):
        kind, line = (
            raw[y * (stride + 1)],
            bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)]),
        )
        for i in range(stride):
            a = line[i - 4] if i >= 4 else 0
            b, c = prev[i], prev[i - 4] if i >= 4 else 0
            if kind == 1:
                line[i] = (line[i] + a) & 255
            elif kind == 2:
                line[i] = (line[i] + b) & 255
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        colours.update(tuple(line[i : i + 3]) for i in range(0, stride, 4) if line[i + 3] == 255)
        prev = line
    return width, height, colours


def _rgb(hex_colour: str) -> tuple[int, int, int]:
    value = int(hex_colour.lstrip("#"), 16)
    return value >> 16, (value >> 8) & 255, value & 255


def test_a_card_is_a_small_deterministic_picture_in_its_countrys_colours() -> None:
    """A card's PNG is CARD_PX square, a few KB, drawn in its country's primary and accent
    colours, and the same bytes when made again (cached or not)."""
    deck = load_deck("t20i")
    index = next(i for i, c in enumerate(deck.cards) if c.country == "India" and c.runs > 1000)
    png = card_png("t20i", index)
    width, height, colours = _pixels(png)
    assert (width, height) == (CARD_PX, CARD_PX)
    assert len(png) < 8_000
    primary, accent = team_colours("India")
    assert _rgb(primary) in colours and _rgb(accent) in colours
    card_png.cache_clear()
    assert card_png("t20i", index) == png


def test_a_hands_pictures_weigh_under_60_kb_and_are_made_once() -> None:
    """Eleven cards of a real deal, each once, under 60 KB in all; the second time the same
    cards are asked for, they come from the cache at a fraction of the cost."""
    card_png.cache_clear()
    deal = solo.deal_game(20261204, "odi").ctx
    start = time.process_time()
    first = hand_images("h6-deal", deal)
    made = time.process_time() - start
    assert len(first) == 11 and len({i.cid for i in first}) == 11
    assert sum(len(i.data) for i in first) < 60_000
    start = time.process_time()
    again = hand_images("h6-deal", deal)
    assert again == first
    assert time.process_time() - start < made


def test_a_kind_without_an_html_twin_makes_no_picture() -> None:
    """The pictures are built only for a mail that has an HTML part to show them: for a kind
    with none, a hand's cards give no picture, and no PNG is made for them."""
    card_png.cache_clear()
    deal = solo.deal_game(20261204, "odi").ctx
    assert hand_images("h6-text-only", deal) == ()
    assert card_png.cache_info().misses == 0
    assert len(hand_images("h6-deal", deal)) == 11


def test_every_hit_for_six_kind_has_an_html_twin_signed_hit_for_six() -> None:
    """Each h6 kind renders its HTML from the same context as its text: in the band and
    sign-off of the name it is sent from (Hit for Six), with nothing of Cosmic Celebrity
    Cricket, and its codes to copy in boxes that do not wrap."""
    for kind in sorted(k for k in SAMPLES if k.startswith("h6-")):
        signed = {"server": SERVER, "notes": [], "sender_name": sender_of(kind)}
        html = render_email(kind, {**signed, **SAMPLES[kind]}).html
        assert html is not None, kind
        assert "Hit for Six (pbm)" in html and "Cosmic Celebrity Cricket" not in html, kind
    reveal = render_email(
        "h6-test-reveal", {"server": SERVER, "notes": [], **SAMPLES["h6-test-reveal"]}
    )
    assert reveal.html is not None
    code = SAMPLES["h6-test-reveal"]["replay_code"]
    box = re.search(rf'<div class="code" style="([^"]*)">{code}</div>', reveal.html)
    assert box and "white-space: pre" in box.group(1), reveal.html


def test_a_deal_by_mail_shows_each_card_by_content_id(
    daemon: Daemon, sender: RecordingSender
) -> None:
    """A DEAL's answer is text and HTML with its eleven card pictures related to the HTML:
    each <img> names a part's Content-ID, and its alt is the card's text."""
    [reply] = Conversation(daemon, sender, "ann@example.test").say("DEAL odi\n", subject="deal")
    assert isinstance(reply, EmailMessage)
    html_part = reply.get_body(("html",))
    assert html_part is not None
    html = html_part.get_content()
    cids = re.findall(r'<img src="cid:([^"]+)"[^>]*alt="([^"]+)"', html)
    assert len(cids) == 11
    parts = {
        str(p["Content-ID"]).strip("<>"): p
        for p in reply.walk()
        if p.get_content_type() == "image/png"
    }
    assert {cid for cid, _ in cids} == set(parts)
    for _, alt in cids:
        assert re.search(r", [A-Z].*: [\d,]+ runs, avg .* BAvg ", alt), alt
    text = reply.get_body(("plain",))
    assert text is not None and "Your hand:" in text.get_content()


def test_an_over_to_every_seat_shows_the_same_cards(
    daemon: Daemon, sender: RecordingSender
) -> None:
    """When the second seat joins, the first over goes to both seats (one an answer, one
    pbm's own mail to the other seat): each shows the same eleven card pictures."""
    ann, bob = "ann@example.test", "bob@example.test"
    [joined] = Conversation(daemon, sender, ann).say("TEST NEW 2\n", subject="a Test")
    wire = re.search(r"\[H6 ([A-Z0-9]{6})\]", str(joined["Subject"]))
    assert wire
    before = len(sender.sent)
    Conversation(daemon, sender, bob).say(f"TEST JOIN {wire.group(1)}\n")
    overs = [m for m in sender.sent[before:] if "window 1" in str(m["Subject"])]
    assert sorted(str(m["To"]) for m in overs) == [ann, bob]
    pictures = [
        sorted(str(p["Content-ID"]) for p in m.walk() if p.get_content_type() == "image/png")
        for m in overs
    ]
    assert len(pictures[0]) == 11 and pictures[0] == pictures[1]
