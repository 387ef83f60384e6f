"""The commands about torchfix itself: list, explain, server, selftest."""

from __future__ import annotations

import inspect
from typing import Annotated

import typer

from torchfix.cli.common import EXIT_FINDINGS, EXIT_OK, stderr, stdout, usage_error
from torchfix.cli.options import SelectOpt, names


def list_codemods() -> None:
    """Show every codemod: name, TorchFix codes, summary, fix safety, default on/off."""
    from rich.table import Table

    from torchfix.rewrite import registry

    table = Table(header_style="bold")
    table.add_column("name", no_wrap=True)
    table.add_column("codes", no_wrap=True)
    table.add_column("summary")
    table.add_column("fixes", no_wrap=True)
    table.add_column("default", no_wrap=True)
    for codemod in registry.all_codemods():
        table.add_row(
            codemod.name,
            ", ".join(registry.codes_of(codemod)),
            codemod.summary,
            codemod.fix_safety,
            "on" if codemod.enabled_by_default else "off",
        )
    stdout().print(table)


def explain(name: Annotated[str, typer.Argument(help="A codemod name.")]) -> None:
    """Print a codemod's documentation with its before/after example."""
    from rich.markdown import Markdown

    from torchfix.rewrite import registry

    try:
        codemod = registry.get(name)
    except registry.UnknownCodemodError as exc:
        usage_error(str(exc))
    text = f"# {codemod.name}\n\n{inspect.getdoc(codemod) or codemod.summary}"
    if codemod.options:
        text += "\n\n## Options\n\n" + "\n".join(
            f"- `{option.name}` (default `{option.default!r}`): {option.help}"
            for option in codemod.options
        )
    # Wrapped to the terminal (or 80 columns), code blocks included: nothing is cut off.
    stdout().print(Markdown(text), soft_wrap=False)


def server() -> None:
    """Run the language server over stdio (for editors: diagnostics and quick fixes)."""
    from torchfix.server.lsp import serve

    serve()


def selftest(
    context: typer.Context,
    select: SelectOpt = None,
    gpu: Annotated[
        bool, typer.Option("--gpu", help="Also run the CUDA scenarios (fails without CUDA).")
    ] = False,
) -> None:
    """Run the golden cases and behavioural smoke scenarios against this torch and machine."""
    from torchfix.output.report import ProgressBar, print_selftest
    from torchfix.rewrite import registry
    from torchfix.selftest import planned, run_selftest

    wanted = names(select)
    chosen: list[str] | None = None
    try:
        # TorchFix codes stand for the codemods that carry them.
        if wanted is not None:
            chosen = [codemod.name for codemod in registry.select(wanted)]
    except registry.UnknownCodemodError as exc:
        usage_error(str(exc))
    selected = None if wanted is None or registry.ALL_SELECTOR in wanted else chosen
    cases, scenarios = planned(selected)
    with ProgressBar(stderr, enabled=True) as progress:
        progress.set_total(len(cases) + len(scenarios))
        checks = run_selftest(selected, gpu, context.obj(),
                              on_check=lambda _check: progress.advance())
    print_selftest(stdout(), checks, _torch_description())
    raise typer.Exit(EXIT_FINDINGS if any(c.status == "failed" for c in checks) else EXIT_OK)


def _torch_description() -> str:
    try:
        import torch
    except ImportError:
        return "torch: not installed (smoke scenarios skipped)"
    device = torch.cuda.get_device_name(0) if torch.cuda.is_available() else "no CUDA device"
    return f"torch {torch.__version__}, {device}"


