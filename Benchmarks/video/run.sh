#!/usr/bin/env bash
# `graph video` on the benchmark clip (make-clip.sh) against ffmpeg's own decode + encode of the
# same clip (no effect, x264 veryfast, same CRF), each timed whole with /usr/bin/time (wall
# seconds, peak resident MiB). Build first: swift build -c release --product graph
#
#   Benchmarks/video/run.sh [FOLDER]     (default /tmp/graph-video-bench)
set -euo pipefail
cd "$(dirname "$0")/../.."
dir=${1:-/tmp/graph-video-bench}
graph=.build/release/graph
frames=$(ffprobe -v error -count_frames -select_streams v:0 -show_entries stream=nb_read_frames -of csv=p=0 "$dir/in.mp4")
measure() {  # label, command...
    local label=$1; shift
    /usr/bin/time -f "%e %M" -o "$dir/time.txt" "$@" >/dev/null
    read -r wall kib < "$dir/time.txt"
    awk -v l="$label" -v w="$wall" -v k="$kib" -v f="$frames" 'BEGIN { printf "%-34s %6.2f s  %6.1f fps  peak %5.0f MiB\n", l, w, f / w, k / 1024 }'
}
echo "$frames frames, $(nproc) cores"
measure "ffmpeg decode+encode (no effect)" ffmpeg -hide_banner -loglevel error -y -i "$dir/in.mp4" -c:v libx264 -preset veryfast -crf 20 -c:a copy "$dir/ffmpeg.mp4"
measure "graph video backdrop" "$graph" video Examples/video/backdrop.json --input "$dir/in.mp4" --depth "$dir/depth.mkv" --out "$dir/backdrop.mp4"
measure "graph video portrait blur 0.5" "$graph" video Examples/video/portrait-blur.json --input "$dir/in.mp4" --depth "$dir/depth.mkv" --out "$dir/portrait.mp4"
measure "ffmpeg decode+encode (no effect)" ffmpeg -hide_banner -loglevel error -y -i "$dir/in.mp4" -c:v libx264 -preset veryfast -crf 20 -c:a copy "$dir/ffmpeg.mp4"
