# Sourced by .ci scripts: the README's commands, found by their markers.
readme_command() {  # the first `python3 ...` line after the marker $1 in README.md
  awk -v m="$1" 'index($0, m){found=1; next} found && /^python3 /{print; exit}' README.md
}
