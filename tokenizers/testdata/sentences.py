"""Deterministic, varied test sentences for the tokenizer fixtures.

Every sentence is made here from a seeded generator: English-like text from
the words of the MiniLM WordPiece vocabulary (Apache-2.0, committed beside
this file), sentences in other languages and scripts written for this file,
code, URLs, emoji, whitespace runs, control characters, combining marks,
very long words, special tokens inside text, random code points from every
plane, and empty strings. Nothing is copied from a third-party text.
"""

import json
import random

MULTILINGUAL = [
    "Le café est très chaud ce matin, n'est-ce pas ?",
    "Über den Wolken muss die Freiheit wohl grenzenlos sein.",
    "¿Dónde está la biblioteca? ¡Allí, señor!",
    "Ação, coração e informação são palavras com acentos.",
    "Příliš žluťoučký kůň úpěl ďábelské ódy.",
    "Zażółć gęślą jaźń.",
    "Tiếng Việt có rất nhiều dấu: ả, ạ, ẫ, ự, ỡ.",
    "Съешь же ещё этих мягких французских булок да выпей чаю.",
    "Γαζέες καὶ μυρτιὲς δὲν θὰ βρῶ πιὰ στὸ χρυσαφὶ ξέφωτο.",
    "שלום עולם, זהו משפט בעברית.",
    "مرحبا بالعالم، هذه جملة باللغة العربية.",
    "नमस्ते दुनिया, यह हिंदी में एक वाक्य है।",
    "สวัสดีชาวโลก นี่คือประโยคภาษาไทย",
    "こんにちは世界、これは日本語の文です。",
    "カタカナとひらがなと漢字が混ざっています。",
    "你好，世界！这是一个中文句子。",
    "我們今天去北京大學參觀。",
    "안녕하세요 세계, 이것은 한국어 문장입니다.",
    "Ողջույն աշխարհ, սա հայերեն նախադասություն է։",
    "გამარჯობა მსოფლიო",
    "ሰላም ልዑል ዓለም",
    "Merhaba dünya, İstanbul'da ıslak şemsiye.",
    "Straße, Maß, Fuß und ẞ sind deutsch.",
    "Ǆemal ǅuro ǉubav Ǌegoš",
    "ﬁne ﬂour ﬀ ﬃ ﬄ ligatures",
    "Ⅻ ⅷ ① ⑳ ㊿ ½ ¾ ⅞",
    "ｆｕｌｌｗｉｄｔｈ ＡＢＣ １２３ ！？",
    "Ω ohm Å angstrom K kelvin µ micro",
    "naïve coöperate résumé façade jalapeño",
    "e\u0301 a\u0300 o\u0302 u\u0308 n\u0303 c\u0327",
    "Z\u0351\u036b\u0343a\u0310\u0346l\u0352g\u030co\u0308 text",
    "\u1100\u1161\u11a8 conjoining jamo 각",
    "Ελληνικά: ΆΈΉΊΌΎΏ άέήίόύώ ΐΰ",
    "Українська: ґанок, їжак, єнот.",
    "Þú ert að lesa íslensku.",
    "Dansk: æble, øl, år.",
    "Română: șapte țări (ş ţ cu sedilă).",
    "Hrvatski: čćđšž ČĆĐŠŽ.",
    "ꯃꯤꯇꯩ ꯃꯌꯦꯛ and ᏣᎳᎩ syllabary",
    "𝔘𝔫𝔦𝔠𝔬𝔡𝔢 𝕳𝖊𝖑𝖑𝖔 𝐁𝐨𝐥𝐝 𝟙𝟚𝟛",
    "ℌ𝔢𝔩𝔩𝔬 ℑ𝔫𝔣𝔬 ℭ",
]

EMOJI = [
    "😀", "😂", "🥲", "👍", "👍🏽", "👨‍👩‍👧‍👦", "🏳️‍🌈", "🇫🇷", "🇯🇵", "❤️", "✨", "🔥",
    "1️⃣", "#️⃣", "🧑🏿‍💻", "👩‍🔬", "🐍", "🦀", "🐹", "☕", "⚽️", "🎉", "🙏🏻", "💯",
]

CODE = [
    "def f(x):\n    return x ** 2  # square",
    "for (int i = 0; i < n; ++i) { sum += a[i]; }",
    "if err != nil {\n\treturn fmt.Errorf(\"open %s: %w\", path, err)\n}",
    "SELECT name, COUNT(*) FROM users WHERE age >= 18 GROUP BY name;",
    "const re = /^[a-z0-9_.+-]+@[a-z0-9-]+\\.[a-z]{2,}$/i;",
    "{\"key\": [1, 2.5, true, null], \"nested\": {\"a\": \"b\"}}",
    "x := make(map[string][]int64, 16) // allocate",
    "<div class=\"row\"><span id='x'>Hi &amp; bye</span></div>",
    "fn main() { println!(\"{}\", vec![1, 2, 3].iter().sum::<i32>()); }",
    "$ git commit -m 'tokenizers: add fixtures' && git push origin HEAD",
    "a+=b*c-d/e%f^g|h&i~j<<k>>l",
    "print(f\"{value!r:>10}\")",
    "@decorator\nclass Foo(Base, metaclass=Meta):\n\tpass",
    "#include <stdio.h>\nint main(void){printf(\"%d\\n\",42);}",
    "λx.λy.x y → β-reduction ≡ ∀x∈ℝ: x² ≥ 0",
]

URLS = [
    "https://huggingface.co/docs/tokenizers/index?lang=en#quicktour",
    "http://example.com:8080/path/to/file.html?a=1&b=two",
    "ftp://ftp.example.org/pub/README.txt",
    "mailto:someone@example.com",
    "user.name+tag@sub.example.co.uk",
    "www.example.com/über/straße",
    "/usr/local/lib/python3.11/site-packages/",
    "C:\\Users\\Public\\Documents\\report_v2.docx",
    "https://xn--bcher-kva.example/",
    "git@github.com:owner/repo.git",
]

SPECIALS = [
    "[MASK]", "[CLS]", "[SEP]", "[PAD]", "[UNK]", "[mask]", "<s>", "</s>", "<pad>", "<unk>",
    "<mask>", "<|endoftext|>", "<|begin_of_text|>", "<|end_of_text|>", "<|eot_id|>",
    "<extra_id_0>", "<extra_id_7>", "<0x41>", "▁", "Ġ", "##ing", "<|reserved_special_token_3|>",
]

CONTROLS = [
    "\x00", "\x01", "\x07", "\x08", "\t", "\n", "\x0b", "\x0c", "\r", "\x1b", "\x1f", "\x7f",
    "\x85", "\xa0", "\xad", "\u061c", "\u180e", "\u200b", "\u200c", "\u200d", "\u200e", "\u200f",
    "\u2028", "\u2029", "\u202a", "\u202e", "\u2060", "\u2066", "\u3000", "\ufeff", "\ufffd",
    "\ufff9", "\U000e0001", "\U000e0041",
]

SPACES = [" ", "  ", "   ", "\t", "\n", "\r\n", "\n\n", " \t ", "\u00a0", "\u3000", "\u2003", "\u202f", "\u1680"]


def english_words(vocab_path):
    with open(vocab_path, encoding="utf-8") as f:
        vocab = json.load(f)["model"]["vocab"]
    words = [w for w in vocab if w.isalpha() and w.isascii() and len(w) > 1 and not w.startswith("##")]
    words.sort()
    return words


def english_sentence(rng, words):
    n = rng.randint(3, 25)
    out = []
    for i in range(n):
        w = rng.choice(words)
        r = rng.random()
        if r < 0.08:
            w = w.capitalize()
        elif r < 0.1:
            w = w.upper()
        elif r < 0.14:
            w = rng.choice(["don't", "it's", "we're", "I'm", "they've", "she'll", "he'd", "can't", "o'clock"])
        elif r < 0.18:
            w = str(rng.choice([rng.randint(0, 99), rng.randint(100, 99999), round(rng.random() * 1000, 2)]))
        elif r < 0.2:
            w = '"' + w + '"'
        elif r < 0.22:
            w = "(" + w + ")"
        out.append(w)
        if rng.random() < 0.1 and i < n - 1:
            out[-1] += rng.choice([",", ";", ":", " -", " —"])
    s = " ".join(out)
    s = s[0].upper() + s[1:]
    return s + rng.choice([".", ".", ".", "!", "?", "...", "", "?!"])


def random_codepoint(rng):
    while True:
        plane = rng.choice([0, 0, 0, 0, 1, 1, 2, 3, 14, 15, 16] + list(range(4, 14)))
        cp = plane * 0x10000 + rng.randrange(0x10000)
        if 0xD800 <= cp <= 0xDFFF:
            continue
        return chr(cp)


def cjk(rng):
    blocks = [(0x4E00, 0x9FFF), (0x3400, 0x4DBF), (0x3040, 0x309F), (0x30A0, 0x30FF), (0xAC00, 0xD7A3),
              (0x20000, 0x2A6DF), (0xF900, 0xFAFF), (0x3000, 0x303F), (0xFF00, 0xFFEF)]
    out = []
    for _ in range(rng.randint(1, 30)):
        lo, hi = rng.choice(blocks)
        out.append(chr(rng.randint(lo, hi)))
        if rng.random() < 0.15:
            out.append(rng.choice([" ", "，", "。", "、", "a", "1", "!"]))
    return "".join(out)


def make(vocab_path, seed=20260722):
    rng = random.Random(seed)
    words = english_words(vocab_path)
    out = []

    def add(kind, n, fn):
        for _ in range(n):
            out.append({"kind": kind, "text": fn()})

    add("english", 700, lambda: english_sentence(rng, words))
    add("multilingual", 250, lambda: rng.choice(MULTILINGUAL) if rng.random() < 0.6 else
        rng.choice(MULTILINGUAL) + " " + english_sentence(rng, words))
    add("cjk", 150, lambda: cjk(rng))
    add("emoji", 150, lambda: " ".join(rng.choice(EMOJI + words[:50]) for _ in range(rng.randint(1, 8)))
        + rng.choice(["", "!", "".join(rng.choice(EMOJI) for _ in range(3))]))
    add("code", 150, lambda: rng.choice(CODE) if rng.random() < 0.7 else rng.choice(CODE) + "\n" + rng.choice(CODE))
    add("url", 100, lambda: rng.choice(["See ", "", "Visit: ", "(", "<"]) + rng.choice(URLS) + rng.choice(["", ".", ")", ">", " now"]))
    add("whitespace", 120, lambda: "".join(rng.choice(SPACES) + (rng.choice(words) if rng.random() < 0.7 else "")
                                           for _ in range(rng.randint(1, 8))) + rng.choice(["", " ", "\n", "  "]))
    add("long_word", 60, lambda: rng.choice([
        "".join(rng.choice(words) for _ in range(rng.randint(10, 40))),
        rng.choice("abcxyz") * rng.randint(90, 300),
        str(rng.randint(10**30, 10**60)),
        "pneumonoultramicroscopicsilicovolcanoconiosis " * rng.randint(1, 3),
        "".join(rng.choice("日本語中文") for _ in range(rng.randint(100, 140))),
        "é" * rng.randint(95, 130),
    ]))
    add("control", 100, lambda: "".join((rng.choice(CONTROLS) if rng.random() < 0.5 else rng.choice(words))
                                        for _ in range(rng.randint(1, 10))))
    add("accents", 120, lambda: " ".join(
        rng.choice(["café", "cafe\u0301", "Ångström", "A\u030angstro\u0308m", "ﬁ", "Å", "Å", "ǅ", "ḱ", "ṩ",
                    "x\u0323\u0307", "x\u0307\u0323", "\u0301", "a\u0301\u0301\u0301", "ÀÉÎÕÜ", "àéîõü",
                    "İstanbul", "ΐ", "ﬀ", "ẞ", "ß", "Ǳ", "ǲ", "ǳ", "Σ", "ς", "Ⓐ", "ⓐ", "\u0345",
                    rng.choice(words)])
        for _ in range(rng.randint(1, 10))))
    add("special_tokens", 150, lambda: "".join(
        rng.choice([rng.choice(SPECIALS), " " + rng.choice(SPECIALS) + " ", rng.choice(words), " ", " ",
                    rng.choice(SPECIALS).upper()])
        for _ in range(rng.randint(1, 8))))
    add("random_unicode", 200, lambda: "".join(
        random_codepoint(rng) if rng.random() < 0.7 else rng.choice([" ", "a", "\n", "1"])
        for _ in range(rng.randint(1, 20))))
    add("numbers", 80, lambda: rng.choice([
        f"{rng.random() * 10**rng.randint(0, 8):.{rng.randint(0, 5)}f}",
        f"{rng.randint(0, 10**9):,}", "٣٤٥ ٦٧", "१२३४", "①②③", "１２３４５", "3.14159", "1e-10", "-42",
        f"{rng.randint(1, 28)}/{rng.randint(1, 12)}/{rng.randint(1900, 2100)}",
        f"${rng.randint(1, 999)}.{rng.randint(0, 99):02d}", "50%", "+1 (555) 123-4567", "v1.2.3-rc.4",
    ]) + rng.choice(["", " items", " km", "th", "%"]))
    add("mixed_scripts", 100, lambda: " ".join(
        rng.choice(rng.choice(MULTILINGUAL).split()) if rng.random() < 0.5 else rng.choice(words)
        for _ in range(rng.randint(2, 12))))
    fixed = ["", " ", "  ", "\n", "\t", ".", "a", "A", "!", "😀", "中", "é", "e\u0301", "[MASK]", "<s>", "</s>",
             "<|endoftext|>", "hello", " hello", "hello ", "  hello  ", "Hello world", "'s", "'S", " 's",
             "don't", "DON'T", "I'll", "ſ", "'ſ", "\u0130", "\u212a", "x" * 101, "x" * 100, "\x00",
             "\ufffd", "\u200b", "a\u200bb", "▁", "▁▁", "Ġ", "  a  b  ", "a  b", "a\n\nb", "a\r\nb",
             " \n ", "\n\n\n", "123", "1234", "12345", "a1b2c3", "....", "!!!", "???", "-_-"]
    for t in fixed:
        out.append({"kind": "fixed", "text": t})
    return out
