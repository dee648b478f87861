# tools/debian-source.sh -- fetch a pinned Debian package, verified.
#
# Sourced by tools/build-pg.sh and tools/debian-root.sh.  The versions
# that may be built, and the SHA-256 of each of their files, are in
# tools/debian-sources.txt (UUIDX_PG_SOURCES names another list, for
# tests).  debian_source_fetch TARGET DIR goes through TARGET's lines in
# order, the pin first, and takes the first version whose files it has:
#
#   1. already in DIR (from an earlier run), every file matching its pin;
#   2. else from apt, through a private configuration for the line's suite
#      (the system's sources are not touched), when that suite's index
#      lists the version: apt checks the files against the signed index;
#   3. else from its pool address with devscripts' dget, which checks the
#      .dsc's signature against debian-keyring (dscverify) and the files
#      against the .dsc; a line that lists no .dsc (the archive serves
#      none for it) has each of its files fetched from the pool, their
#      pinned SHA-256, taken from the suite's signed Sources index, being
#      the check.
#
# A line whose files are binary packages (.deb, named for the source
# package on the line) is fetched the same way from the suite's binary
# index (`apt-get download`), else from the pool with dget; a .deb has no
# .dsc, so there its pinned SHA-256, taken from the signed index, is the
# check.
#
# Whatever the way, every file is then checked against its pinned SHA-256
# before it is kept; a file that differs stops the build, naming the file,
# the version and both digests.  A version that cannot be fetched is
# reported, with the reason, before the next line is tried; an unlisted
# version is never fetched.  On success it sets
#
#   SOURCE_PACKAGE SOURCE_VERSION SOURCE_SUITE   what was chosen
#   SOURCE_DSC                                   its .dsc in DIR, or empty
#   SOURCE_FILES                                 array of its files in DIR
#   SOURCE_ORIGIN                                cached | apt | dget
#   SOURCE_REPORT                                one line for logs and stamps
#
# The caller provides die, note (progress on stderr) and run (a command
# with its output in the log), and may set UUIDX_PG_MIRROR and CACHE_ROOT
# (the private apt state lives in $CACHE_ROOT/apt/<suite>).

DEBIAN_SOURCES=${UUIDX_PG_SOURCES:-$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/debian-sources.txt}

# The Debian mirror this machine's apt uses, else deb.debian.org.
debian_mirror() {
	local f uri
	if [[ -n ${UUIDX_PG_MIRROR:-} ]]; then
		echo "${UUIDX_PG_MIRROR%/}"
		return
	fi
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[[ -r $f ]] || continue
		uri=$(sed -nE 's/^[[:space:]]*deb(-src)?[[:space:]]+(\[[^]]*\][[:space:]]+)?([a-z+]+:\/\/[^[:space:]]+\/debian)\/?[[:space:]].*/\3/p' "$f" | head -n1)
		[[ -n $uri ]] && { echo "$uri"; return; }
	done
	for f in /etc/apt/sources.list.d/*.sources; do
		[[ -r $f ]] || continue
		uri=$(sed -nE 's/^URIs:[[:space:]]*(.*)$/\1/p' "$f" | tr -s '[:space:]' '\n' |
			grep -E '^[a-z+]+://[^[:space:]]+/debian/?$' | head -n1 || true)
		[[ -n $uri ]] && { echo "${uri%/}"; return; }
	done
	echo "http://deb.debian.org/debian"
}

# The lines of TARGET in the list, pin first.
debian_source_lines() {
	awk -v t="$1" '$1 == t' "$DEBIAN_SOURCES"
}

# A short digest of TARGET's lines: what a stamp records, so that what it
# stands for is made again once a pin moves.
debian_pins_sum() {
	debian_source_lines "$1" | sha256sum | cut -c1-16
}

# Stamps of what was made from TARGET's files (pg_partman, unpacked
# packages): is STAMP current for TARGET's lines, and write it after
# debian_source_fetch, with VERSION as what was made.
debian_stamp_current() {
	[[ -f $1 ]] && grep -qxF "pins=$(debian_pins_sum "$2")" "$1"
}
debian_stamp_write() {
	printf 'pins=%s\nversion=%s\nsource=%s\n' "$(debian_pins_sum "$2")" "$3" "$SOURCE_REPORT" >"$1"
}

# Check FILE against SHA-256 EXPECTED; on a difference, stop the build.
debian_source_check() {
	local file=$1 expected=$2 what=$3 actual
	actual=$(sha256sum "$file" | cut -d' ' -f1)
	[[ $actual == "$expected" ]] && return 0
	die "refusing $what: $(basename "$file") has SHA-256 $actual, but $DEBIAN_SOURCES pins $expected (the file is $file)"
}

# Private apt for SUITE's source index (KIND src, the default) or binary
# index (KIND deb): sets APT (the command), refreshing the index once per
# run.  Returns non-zero when the index cannot be had.
declare -A DEBIAN_APT_STATUS=()
debian_apt() {
	local suite=$1 kind=${2:-src} keyring=/usr/share/keyrings/debian-archive-keyring.gpg
	local dir=$CACHE_ROOT/apt/$1 line
	if [[ $kind == deb ]]; then
		dir+=-binary
		line="deb [arch=$(dpkg --print-architecture) signed-by=$keyring] $(debian_mirror) $suite main"
	else
		line="deb-src [signed-by=$keyring] $(debian_mirror) $suite main"
	fi
	APT=(apt-get -q
		-o "Dir::Etc::SourceList=$dir/sources.list"
		-o "Dir::Etc::SourceParts=/dev/null"
		-o "Dir::State=$dir/state"
		-o "Dir::State::Lists=$dir/lists"
		-o "Dir::Cache=$dir/cache"
		-o "Dir::Cache::pkgcache="
		-o "Dir::Cache::srcpkgcache="
		-o "Acquire::Retries=1"
		-o "Acquire::http::Timeout=30"
		-o "APT::Get::Only-Source=true")
	if [[ -z ${DEBIAN_APT_STATUS[$suite/$kind]:-} ]]; then
		[[ -r $keyring ]] || die "$keyring missing (package debian-archive-keyring)"
		mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial" "$dir/state"
		echo "$line" >"$dir/sources.list"
		id _apt >/dev/null 2>&1 && chown -R _apt:root "$dir/lists/partial" "$dir/cache/archives/partial"
		if run "${APT[@]}" update --error-on=any; then
			DEBIAN_APT_STATUS[$suite/$kind]=ok
		else
			DEBIAN_APT_STATUS[$suite/$kind]=failed
		fi
	fi
	[[ ${DEBIAN_APT_STATUS[$suite/$kind]} == ok ]]
}

# The pool address of FILE of source package PKG.
debian_pool_url() {
	local pkg=$1 file=$2 prefix=${1:0:1}
	[[ $pkg == lib?* ]] && prefix=${pkg:0:4}
	echo "$(debian_mirror)/pool/main/$prefix/$pkg/$file"
}

# Download into TMP with apt from SUITE's index of KIND (src: `apt-get
# source --download-only ARGS`, deb: `apt-get download ARGS`) when the
# index lists what ARGS name; else say why on stderr and return non-zero.
debian_apt_fetch() {
	local suite=$1 kind=$2 tmp=$3
	shift 3
	local -a get=(source --download-only) ask=(source --print-uris)
	[[ $kind == deb ]] && get=(download) ask=(download --print-uris)
	if [[ ${DEBIAN_APT_STATUS[$suite/$kind]} != ok ]]; then
		echo "$suite's index could not be fetched from $(debian_mirror)" >&2
	elif ! (cd "$tmp" && "${APT[@]}" "${ask[@]}" "$@" >/dev/null 2>&1); then
		echo "$suite's index does not list it" >&2
	else
		id _apt >/dev/null 2>&1 && chown _apt:root "$tmp"
		(cd "$tmp" && run "${APT[@]}" "${get[@]}" "$@") && return 0
		echo "apt could not download it from $suite's index (see $LOG)" >&2
	fi
	return 1
}

# Download NAMES of PKG into TMP from their pool addresses with dget, for
# files no .dsc covers (whose pinned SHA-256, from the signed index, is
# then their check).  Prints dget, or the reason it failed on stderr.
debian_pool_download() {
	local pkg=$1 tmp=$2 name
	shift 2
	for name; do
		if ! (cd "$tmp" && run dget --download-only "$(debian_pool_url "$pkg" "$name")"); then
			echo "and dget could not fetch $(debian_pool_url "$pkg" "$name") (see $LOG)" >&2
			return 1
		fi
	done
	echo dget
}

# Download PKG VERSION's files NAMES into TMP: apt if SUITE's index lists
# the version, else dget from the pool (the .dsc, which dget verifies and
# follows; without one, each file).  Prints the way on stdout, or the
# reason it failed on stderr and returns non-zero.  Runs in a subshell:
# debian_apt has been called for SUITE before.
debian_source_download() {
	local pkg=$1 suite=$2 version=$3 tmp=$4 dsc=$5 only=()
	shift 5
	[[ -n $dsc ]] || only=(--tar-only)
	if debian_apt_fetch "$suite" src "$tmp" "${only[@]}" "$pkg=$version"; then
		echo apt
		return 0
	fi
	[[ -n $dsc ]] || {
		debian_pool_download "$pkg" "$tmp" "$@"
		return
	}
	if (cd "$tmp" && run dget --download-only "$(debian_pool_url "$pkg" "$dsc")"); then
		echo dget
		return 0
	fi
	echo "and dget could not fetch and verify $(debian_pool_url "$pkg" "$dsc") (see $LOG)" >&2
	return 1
}

# The same for binary packages: NAMES are the .deb files of PKG VERSION.
debian_binary_download() {
	local pkg=$1 suite=$2 version=$3 tmp=$4 name
	shift 4
	local -a wanted=()
	for name; do wanted+=("${name%%_*}=$version"); done
	if debian_apt_fetch "$suite" deb "$tmp" "${wanted[@]}"; then
		echo apt
		return 0
	fi
	debian_pool_download "$pkg" "$tmp" "$@"
}

debian_source_fetch() {
	local target=$1 dir=$2 line pkg suite version files entry name tmp origin why i kind
	local -a tried=() names sums
	local pin=
	mkdir -p "$dir"
	while read -r line; do
		read -r _ pkg suite version files <<<"$line"
		[[ -n $pin ]] || pin=$version
		names=() sums=()
		SOURCE_DSC=
		kind=src
		for entry in $files; do
			[[ $entry == *.deb=* ]] && kind=deb
			names+=("${entry%%=*}")
			sums+=("${entry#*=}")
			[[ ${entry%%=*} == *.dsc ]] && SOURCE_DSC=${entry%%=*}
		done
		# 1. The cache: all files there, each as pinned (or stop).
		origin=cached
		for name in "${names[@]}"; do
			[[ -f $dir/$name ]] || origin=
		done
		if [[ -z $origin ]]; then
			# 2./3. apt or dget, into a folder of its own, then checked.
			tmp=$(mktemp -d "$dir/.download.XXXXXX")
			debian_apt "$suite" "$kind" || true
			if ! origin=$(if [[ $kind == deb ]]; then
				debian_binary_download "$pkg" "$suite" "$version" "$tmp" "${names[@]}"
			else
				debian_source_download "$pkg" "$suite" "$version" "$tmp" "$SOURCE_DSC" "${names[@]}"
			fi 2>"$tmp.why"); then
				why=$(tr '\n' ' ' <"$tmp.why")
				note "$pkg $version is not served: ${why% }"
				tried+=("$version (${why% })")
				rm -rf "$tmp" "$tmp.why"
				continue
			fi
			rm -f "$tmp.why"
		fi
		for i in "${!names[@]}"; do
			if [[ $origin == cached ]]; then
				debian_source_check "$dir/${names[$i]}" "${sums[$i]}" "$pkg $version from the cache"
			else
				[[ -f $tmp/${names[$i]} ]] || die "$origin fetched $pkg $version without ${names[$i]}"
				debian_source_check "$tmp/${names[$i]}" "${sums[$i]}" "$pkg $version as fetched by $origin"
			fi
		done
		if [[ $origin != cached ]]; then
			for name in "${names[@]}"; do mv -f "$tmp/$name" "$dir/$name"; done
			rm -rf "$tmp"
		fi
		SOURCE_PACKAGE=$pkg SOURCE_SUITE=$suite SOURCE_VERSION=$version SOURCE_ORIGIN=$origin
		SOURCE_FILES=()
		for name in "${names[@]}"; do SOURCE_FILES+=("$dir/$name"); done
		[[ -z $SOURCE_DSC ]] || SOURCE_DSC=$dir/$SOURCE_DSC
		SOURCE_REPORT="$pkg $version ($suite)"
		if [[ $version == "$pin" ]]; then
			SOURCE_REPORT+=", the pinned version"
		else
			SOURCE_REPORT+=", a listed fallback: the pinned $pin was not served"
		fi
		SOURCE_REPORT+=", ${#names[@]} $([[ ${#names[@]} == 1 ]] && echo "file verified against its" ||
			echo "files verified against their") pinned SHA-256 ($origin"
		case $origin in
		apt) SOURCE_REPORT+=" from $suite's signed index)" ;;
		dget) [[ -z $SOURCE_DSC ]] && SOURCE_REPORT+=" from the pool)" ||
			SOURCE_REPORT+=": .dsc signature checked by dscverify)" ;;
		*) SOURCE_REPORT+=")" ;;
		esac
		return 0
	done < <(debian_source_lines "$target")
	[[ -n $pin ]] || die "$DEBIAN_SOURCES lists no version of $target"
	die "none of the versions of $target (Debian's $pkg, $suite) listed in $DEBIAN_SOURCES could be fetched, the pin and its fallbacks: ${tried[*]}"
}
