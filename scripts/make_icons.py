"""Draw the app icons (home-screen icons of the web app manifest) into scorekeeper/static/.

Run once after changing the design: ``.venv/bin/python scripts/make_icons.py``. Pillow comes
with reportlab. Two fanned cards on the app's red, the front one showing a heart and a spade.
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

ROOT = Path(__file__).resolve().parent.parent
STATIC = ROOT / "scorekeeper" / "static"
FONT = ROOT / "scorekeeper" / "sheets" / "fonts" / "DejaVuSans-Bold.ttf"
RED = (179, 38, 30)
PAPER = (255, 253, 248)
INK = (29, 27, 22)


def card(size: int, scale: int) -> Image.Image:
    w, h = int(size * 0.42), int(size * 0.58)
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle(
        (0, 0, w - 1, h - 1),
        radius=int(size * 0.05),
        fill=PAPER,
        outline=(120, 20, 15),
        width=max(1, scale),
    )
    return img


def draw(size: int, maskable: bool = False) -> Image.Image:
    scale = max(1, size // 96)
    img = Image.new("RGBA", (size, size), RED + (255,))
    if not maskable:
        img = Image.new("RGBA", (size, size), (0, 0, 0, 0))
        ImageDraw.Draw(img).rounded_rectangle(
            (0, 0, size - 1, size - 1), radius=int(size * 0.2), fill=RED
        )
    inner = 0.8 if maskable else 1.0  # keep the motif inside the maskable safe zone
    s = int(size * inner)
    back = card(s, scale).rotate(14, expand=True, resample=Image.BICUBIC)
    front = card(s, scale)
    font = ImageFont.truetype(str(FONT), int(s * 0.2))
    fd = ImageDraw.Draw(front)
    fw, fh = front.size
    fd.text((fw / 2, fh * 0.32), "\u2665", font=font, fill=RED, anchor="mm")
    fd.text((fw / 2, fh * 0.68), "\u2660", font=font, fill=INK, anchor="mm")
    front = front.rotate(-10, expand=True, resample=Image.BICUBIC)
    cx, cy = size // 2, size // 2
    img.alpha_composite(back, (cx - back.width // 2 - int(s * 0.1), cy - back.height // 2))
    img.alpha_composite(front, (cx - front.width // 2 + int(s * 0.1), cy - front.height // 2))
    return img


def main() -> None:
    for size in (192, 512):
        draw(size).save(STATIC / f"icon-{size}.png", optimize=True)
    draw(512, maskable=True).save(STATIC / "icon-maskable-512.png", optimize=True)
    draw(180, maskable=True).convert("RGB").save(STATIC / "apple-touch-icon.png", optimize=True)
    draw(32).save(STATIC / "favicon-32.png", optimize=True)


if __name__ == "__main__":
    main()
