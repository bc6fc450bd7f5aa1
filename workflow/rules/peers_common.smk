# peers_common.smk: paths and target builders of the optional peer stage (peers.smk).

PEERS = config.get("peers", [])
TFHE = config.get("tfhe", {})
#: Each TFHE peer: its settings key in the config and tfhe_aes's --method.
TFHE_PEERS = {"tfhe": ("tfhe", "transciphering"), "tfhe-leveled": ("tfhe_leveled", "leveled")}
TFHE_MANIFEST = os.path.join(workflow.basedir, "runners", "tfhe", "Cargo.toml")
TFHE_TARGET_DIR = os.path.join(BUILD_DIR, "tfhe")
TFHE_AES = os.path.join(TFHE_TARGET_DIR, "release", "tfhe_aes")
TFHE_STAMP = os.path.join(R, "build", "tfhe.done")
PEER_ID = "{peer}_aes128_{params}_t{threads}_b{blocks}_rep{rep}"


def peer_runs():
    """One record per tfhe_aes job of the config, for each TFHE peer in peers."""
    runs = []
    for peer, (key, _method) in TFHE_PEERS.items():
        if peer not in PEERS:
            continue
        settings = config.get(key, {})
        runs += [
            dict(peer=peer, params=settings["params"], threads=t, blocks=settings["blocks"], rep=rep)
            for t in settings["threads"]
            for rep in range(config["repetitions"])
        ]
    return runs


def peer_method(wildcards):
    return TFHE_PEERS[wildcards.peer][1]


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
    return dict(peer=wildcards.peer, params=wildcards.params, threads=int(wildcards.threads),
                blocks=int(wildcards.blocks), rep=int(wildcards.rep))
