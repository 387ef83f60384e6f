# golden-args: --unsafe-fixes
# A project with no formatter configured whose code keeps to 88 columns: only lines
# holding a string run past it (black cannot wrap them). The raise that replaces such an
# assert has brackets, so black would wrap it: it is written wrapped.
import torch


class RungeKutta:
    def step(self, term, y0: torch.Tensor, dt: torch.Tensor) -> torch.Tensor:
        if self.tableau.fsal:
            term_ = term
            if torch.jit.is_scripting() or term_ is None:
                if term is not None:
                    raise ValueError(
                        "The integration term is fixed for JIT compilation"
                    )
                term_ = self.term
            return term_(y0) * dt
        return y0
