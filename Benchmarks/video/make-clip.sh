#!/usr/bin/env bash
# Makes the `graph video` benchmark clip (nothing big is committed): a 1080p H.264 video (x264,
# 30 fps, SECONDS long, testsrc2 pattern with a moving grey box and a 440 Hz AAC track) and its
# 640x480 depth stream (16-bit millimetres, FFV1): a 1 m box moving as the one in the video over
# a floor slanting from 1.5 m (top) to 4 m (bottom), with 1 % holes, as the ffmpeg CLI's lavfi
# filters make them. Uses the ffmpeg program, which the product never does: this is test data.
#
#   Benchmarks/video/make-clip.sh [FOLDER] [SECONDS]     (default /tmp/graph-video-bench, 10)
set -euo pipefail
out=${1:-/tmp/graph-video-bench}
seconds=${2:-10}
mkdir -p "$out"
# The box: 480x480 video pixels at x = 720 + 500·sin(t), y = 300; in the depth map (1/3 across,
# 4/9 down) the same place.
ffmpeg -hide_banner -loglevel error -y \
    -f lavfi -i "testsrc2=size=1920x1080:rate=30:duration=$seconds" \
    -f lavfi -i "color=gray:size=480x480:rate=30:duration=$seconds" \
    -f lavfi -i "sine=frequency=440:duration=$seconds" \
    -filter_complex "[0:v][1:v]overlay=x='720+500*sin(t)':y=300,format=yuv420p[v]" \
    -map "[v]" -map 2:a -c:v libx264 -preset medium -crf 18 -c:a aac -b:a 128k -shortest "$out/in.mp4"
ffmpeg -hide_banner -loglevel error -y \
    -f lavfi -i "nullsrc=size=640x480:rate=30:duration=$seconds,format=gray16le,geq=lum='if(between(X\,(720+500*sin(T))/3\,(1200+500*sin(T))/3)*between(Y\,300*4/9\,780*4/9)\,1000\,if(lt(random(1)\,0.01)\,0\,1500+Y*5.2))'" \
    -c:v ffv1 "$out/depth.mkv"
ls -l "$out"
