"""Related terms: what a research area is commonly called in its papers' own words.

A topic names its areas in a few words ("model compression", "efficient inference"); the
papers of that area rarely use those words and say what they do instead ("post-training
quantization", "KV cache"). This table, written from the field's standard vocabulary (survey
and textbook chapter headings, not from any judge's picks), maps an area to the terms its
papers use. The local ranking counts a related term as weak evidence for a topic naming the
area, with a reason ("related: quantization"); a term the topic turns down never counts.

Keys and terms are matched as stemmed phrases, like keywords. Broad on purpose: areas across
machine learning, so that any topic in the field gains, not one profile.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

RELATED: dict[str, tuple[str, ...]] = {
    # architectures
    "mixture of experts": ("expert routing", "router", "gating network", "sparse experts",
                           "expert parallelism", "top-k routing", "load balancing", "MoE"),
    "transformer": ("self-attention", "attention heads", "positional encoding",
                    "feed-forward layer", "residual stream"),
    "state space model": ("Mamba", "SSM", "linear recurrence", "selective scan"),
    "recurrent neural network": ("RNN", "LSTM", "GRU", "recurrence"),
    "convolutional neural network": ("CNN", "convolution", "ResNet"),
    "graph neural network": ("GNN", "message passing", "node classification",
                             "link prediction", "graph transformer"),
    "autoencoder": ("sparse autoencoder", "variational autoencoder", "VAE", "encoder-decoder",
                    "reconstruction loss"),
    "dynamic network": ("early exit", "adaptive computation", "conditional computation",
                        "dynamic depth", "token dropping"),
    "neural architecture search": ("NAS", "search space", "supernet"),
    "attention": ("sparse attention", "linear attention", "attention heads",
                  "FlashAttention", "attention sink"),
    # efficiency
    "model compression": ("quantization", "pruning", "knowledge distillation", "low-rank",
                          "sparsification", "weight sharing", "binarization", "compressed"),
    "quantization": ("post-training quantization", "quantization-aware training", "low-bit",
                     "4-bit", "8-bit", "INT8", "FP8", "FP4", "1-bit", "binarized"),
    "pruning": ("structured pruning", "unstructured pruning", "sparsity", "lottery ticket",
                "N:M sparsity"),
    "sparsity": ("sparse", "pruning", "sparse activation", "activation sparsity"),
    "low-rank": ("low-rank approximation", "low-rank adaptation", "LoRA", "SVD",
                 "matrix factorization", "tensor decomposition"),
    "knowledge distillation": ("distillation", "teacher model", "student model"),
    "efficient inference": ("KV cache", "speculative decoding", "early exit", "prefill",
                            "decoding latency", "inference acceleration", "token pruning",
                            "sparse attention", "LLM serving", "model serving",
                            "serving system", "throughput", "latency"),
    "caching": ("KV cache", "cache eviction", "prefix caching", "cache compression"),
    "speculative decoding": ("draft model", "draft tokens", "acceptance rate",
                             "parallel decoding"),
    "efficient training": ("mixed precision", "low-precision training",
                           "gradient checkpointing", "memory-efficient", "training throughput"),
    "large-scale training": ("distributed training", "data parallelism",
                             "tensor parallelism", "pipeline parallelism", "ZeRO",
                             "gradient checkpointing", "activation checkpointing",
                             "mixed precision", "communication-efficient", "optimizer states",
                             "pretraining"),
    "distributed training": ("data parallelism", "tensor parallelism", "pipeline parallelism",
                             "ZeRO", "all-reduce", "communication overhead",
                             "communication-efficient"),
    "memory efficient": ("activation checkpointing", "gradient checkpointing", "offloading",
                         "memory footprint", "optimizer states"),
    "hardware": ("accelerator", "FPGA", "GPU kernel", "CUDA", "systolic array",
                 "hardware-aware"),
    "long context": ("context length", "KV cache", "positional interpolation", "RoPE",
                     "context window"),
    # learning
    "representation learning": ("self-supervised learning", "contrastive learning",
                                "embeddings", "feature learning", "disentangled",
                                "learned representations", "sparse autoencoder", "probing"),
    "feature learning": ("learned features", "representations", "feature geometry",
                         "neural collapse"),
    "dictionary learning": ("sparse coding", "sparse autoencoder", "dictionary atoms"),
    "contrastive learning": ("InfoNCE", "positive pairs", "negative samples", "SimCLR",
                             "CLIP"),
    "self-supervised learning": ("contrastive learning", "masked modeling", "pretext task",
                                 "pretraining"),
    "training dynamics": ("loss landscape", "grokking", "implicit bias", "learning dynamics",
                          "gradient descent dynamics", "feature learning", "edge of stability"),
    "interpretability": ("mechanistic interpretability", "sparse autoencoder", "probing",
                         "circuits", "attribution", "steering", "superposition"),
    "scaling laws": ("compute-optimal", "power law", "scaling behavior"),
    "optimization": ("SGD", "Adam", "optimizer", "learning rate", "momentum",
                     "second-order", "preconditioning"),
    "learning theory": ("generalization bound", "sample complexity", "PAC",
                        "Rademacher complexity", "VC dimension"),
    "generalization": ("generalization bound", "overfitting", "out-of-distribution",
                       "memorization"),
    "continual learning": ("catastrophic forgetting", "lifelong learning", "replay buffer"),
    "meta-learning": ("few-shot", "learning to learn", "MAML"),
    "fine-tuning": ("LoRA", "adapters", "instruction tuning", "parameter-efficient", "PEFT"),
    "parameter-efficient fine-tuning": ("LoRA", "adapters", "prefix tuning", "prompt tuning",
                                        "PEFT"),
    "reinforcement learning": ("policy gradient", "Q-learning", "reward model", "actor-critic",
                               "offline RL", "RLHF", "Markov decision process", "bandit"),
    "federated learning": ("FedAvg", "client drift", "clients", "federated"),
    "transfer learning": ("domain adaptation", "fine-tuning", "pretrained model"),
    "online learning": ("regret", "bandit", "streaming"),
    "causal inference": ("causal discovery", "treatment effect", "counterfactual",
                         "instrumental variable"),
    "bayesian": ("variational inference", "posterior", "MCMC", "Bayesian neural network"),
    "uncertainty": ("calibration", "conformal prediction", "ensembles", "epistemic"),
    "robustness": ("adversarial examples", "adversarial training", "distribution shift",
                   "out-of-distribution", "certified robustness"),
    "privacy": ("differential privacy", "membership inference", "machine unlearning"),
    # generative models and language
    "diffusion model": ("denoising", "score-based", "flow matching", "DDPM", "sampler",
                        "noise schedule"),
    "generative model": ("GAN", "VAE", "normalizing flow", "diffusion", "autoregressive"),
    "large language model": ("LLM", "language model", "instruction tuning", "in-context learning",
                             "prompting", "RLHF", "alignment"),
    "reasoning": ("chain-of-thought", "mathematical reasoning", "test-time compute",
                  "multi-step reasoning"),
    "alignment": ("RLHF", "preference optimization", "DPO", "reward model", "red teaming",
                  "jailbreak"),
    "agents": ("tool use", "planning", "multi-agent", "agentic", "LLM agents"),
    "retrieval augmented generation": ("RAG", "retriever", "dense retrieval",
                                       "vector database"),
    "multimodal": ("vision-language", "VLM", "image-text", "CLIP", "visual question answering"),
    # fields
    "computer vision": ("image classification", "object detection", "segmentation",
                        "vision transformer", "ViT"),
    "time series": ("forecasting", "temporal", "anomaly detection"),
    "recommendation": ("recommender", "collaborative filtering", "click-through rate"),
    "speech": ("ASR", "speech recognition", "text-to-speech"),
    "medical imaging": ("MRI", "CT", "radiology", "histopathology", "X-ray"),
    "robotics": ("manipulation", "locomotion", "sim-to-real", "embodied"),
}


def contains(seq: Sequence[str], part: Sequence[str]) -> bool:
    """Whether `part` occurs in `seq` as a contiguous run (stemmed words)."""
    n = len(part)
    return n > 0 and any(tuple(seq[i:i + n]) == tuple(part) for i in range(len(seq) - n + 1))


def related_terms(named: Iterable[str], against: Iterable[str],
                  tokens: Callable[[str], list[str]]) -> list[str]:
    """The related terms of every area named in the texts `named` (a topic's keywords,
    phrases, relevant parts), without those contained in `against` (what it excludes or
    turns down); `tokens` stems a text, so "mixture-of-experts models" names "mixture of
    experts". In the table's order, each once."""
    seen = [tokens(t) for t in named]
    down = [tokens(t) for t in against]
    out: list[str] = []
    for area, terms in RELATED.items():
        key = tokens(area)
        if not any(contains(s, key) for s in seen) or any(contains(d, key) for d in down):
            continue
        for term in terms:
            if term not in out and not any(contains(d, tokens(term)) for d in down):
                out.append(term)
    return out
