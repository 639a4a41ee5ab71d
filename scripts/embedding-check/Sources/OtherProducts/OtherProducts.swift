// Nothing to run: this target exists so that the build includes FlowLayout and `flow`.
import FlowLayout
