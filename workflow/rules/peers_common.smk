# peers_common.smk: paths and target builders of the optional peer stage (peers.smk).

PEERS = config.get("peers", [])
TFHE = config.get("tfhe", {})
TFHE_MANIFEST = os.path.join(workflow.basedir, "runners", "tfhe", "Cargo.toml")
TFHE_TARGET_DIR = os.path.join(BUILD_DIR, "tfhe")
TFHE_AES = os.path.join(TFHE_TARGET_DIR, "release", "tfhe_aes")
TFHE_STAMP = os.path.join(R, "build", "tfhe.done")
PEER_ID = "tfhe_aes128_{params}_t{threads}_b{blocks}_rep{rep}"


def peer_runs():
    """One record per tfhe_aes job of the config (none unless peers has tfhe)."""
    if "tfhe" not in PEERS:
        return []
    return [
        dict(params=TFHE["params"], threads=t, blocks=TFHE["blocks"], rep=rep)
        for t in TFHE["threads"]
        for rep in range(config["repetitions"])
    ]


def peer_files():
    return [os.path.join(R, "peers", f"{PEER_ID.format(**r)}.json") for r in peer_runs()]


PEERS_CSV = os.path.join(R, "tidy", "peers.csv")
SCHEMES_FIGURE = {ext: os.path.join(R, "figures", f"aes128_across_schemes.{ext}") for ext in ("png", "pdf")}


def peer_targets():
    """What rule all adds when peers are configured."""
    if not PEERS:
        return []
    return [PEERS_CSV, SCHEMES_FIGURE["png"], SCHEMES_FIGURE["pdf"]]


def peer_asked(wildcards):
    return dict(params=wildcards.params, threads=int(wildcards.threads), blocks=int(wildcards.blocks),
                rep=int(wildcards.rep))
