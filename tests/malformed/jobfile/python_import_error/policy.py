import faultsweep_policy as fp
import no_such_module_here
